"""§0 R5/R6: reply encoding as clients see it (cjson conventions)."""


def test_r5_fraction_and_exponent(ql):
    """R5: numbers written %.14g style: 61.5, 1e+20."""
    ql.put(priority="1e20")
    ql.put("b")
    raw = ql("get", 0, "jid")
    assert '"priority":1e+20' in raw
    ql.pop(now=1.5, count=2)
    assert '"expires":61.5' in ql("get", 0, "b")


def test_r5_slash_escaped_and_booleans(ql):
    """R5: `/` is escaped as `\\/`; false/true are JSON booleans; empty lists are {}."""
    ql.put("a/b")
    raw = ql("get", 0, "a/b")
    assert '"jid":"a\\/b"' in raw
    assert '"tracked":false' in raw and '"spawned_from_jid":false' in raw
    assert '"tags":{}' in raw and '"dependents":{}' in raw
    ql.track("a/b")
    assert '"tracked":true' in ql("get", 0, "a/b")


def test_r6_reply_types(ql):
    """R6: strings are bulk strings, numbers integers, nil for absent."""
    assert ql.put() == "jid"
    assert isinstance(ql("length", 0, "queue"), int)
    assert ql("pause", 0, "queue") is None
    assert ql("cancel", 0, "jid") == ["jid"]
