"""Parsing helpers shared by the checks that read C declarations
(check-typemaps.py, c/check-conventions.py)."""


def split_top(text):
    """Splits on commas outside parentheses; blank parts are dropped."""
    parts, depth, cur = [], 0, ""
    for ch in text:
        depth += ch == "("
        depth -= ch == ")"
        if ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    parts.append(cur)
    return [p.strip() for p in parts if p.strip()]
