"""Schedules on the command line (schedules.md §8): cron next (CLI-2),
schedule add/list/remove (CLI-3), cron templates through recur (CLI-4) and
unique puts, each checked against what the server stored."""
import json
import re
import time

import pytest

RNX2 = ["2026-03-05T09:00:00Z (1772701200)", "2026-03-06T09:00:00Z (1772787600)",
        "2026-03-09T09:00:00Z (1773046800)"]


def lines(out):
    return out.splitlines()


def test_cron_next(qless, r):
    # CLI-2, the next half: the RNX-2 times, --from as epoch or ISO
    assert lines(qless("cron", "next", "0 9 * * 1-5", "3", "--from", "1772619330")[0]) == RNX2
    assert lines(qless("cron", "next", "0 9 * * MON-FRI", "--from", "2026-03-04T10:15:30Z", "3")[0]) == RNX2
    out, _ = qless("--json", "cron", "next", "0 9 * * 1-5", "--from", "1772619330")
    got = json.loads(out)
    assert len(got) == 5 and got[0] == {"at": "2026-03-05T09:00:00Z", "epoch": 1772701200}
    # a --from on a fire time includes it; a fraction past it does not
    assert lines(qless("cron", "next", "0 9 * * *", "1", "--from", "1772701200")[0]) == [RNX2[0]]
    assert lines(qless("cron", "next", "0 9 * * *", "1", "--from", "1772701199.5")[0]) == [RNX2[0]]
    assert lines(qless("cron", "next", "0 9 * * *", "1", "--from", "1772701200.5")[0]) == [RNX2[1]]
    assert r.dbsize() == 0
    # errors: exit 2, one line, the reason
    assert "hour field" in qless("cron", "next", "0 24 * * *", code=2)[1]
    assert "never fires" in qless("cron", "next", "0 0 31 2 *", code=2)[1]
    assert "N must be an integer from 1 to 1000" in qless("cron", "next", "@daily", "1001", code=2)[1]
    assert "--from needs" in qless("cron", "next", "@daily", "--from", "soon", code=2)[1]
    assert "quote the expression" in qless("cron", "next", "0", "9", "*", "*", "*", code=2)[1]
    assert "takes no --from" in qless("cron", "check", "@daily", "--from", "0", code=2)[1]


def test_schedule_add_twice_is_one_entry(qless, r, raw, url):
    # CLI-3
    first = qless("schedule", "add", "q", "K", "{}", "--in", "5m")[0].strip()
    again = raw("--url", url, "schedule", "add", "q", "K", "{}", "--in", "5m")
    assert again.returncode == 0 and again.stdout.strip() == first
    assert again.stderr.startswith("qless: schedule add: already scheduled for "), again.stderr
    got = json.loads(qless("--json", "schedule", "add", "q", "K", "{}", "--in", "5m")[0])
    assert got["jid"] == first and got["inserted"] is False and got["kind"] == "at"
    assert r.zcard("ql:q:q-scheduled") == 1
    assert abs(r.zscore("ql:q:q-scheduled", first) - (time.time() + 300)) < 30
    # --no-unique adds another; --key names the identity
    other = qless("schedule", "add", "q", "K", "{}", "--in", "5 minutes", "--no-unique")[0].strip()
    assert other != first and r.zcard("ql:q:q-scheduled") == 2
    a = json.loads(qless("--json", "schedule", "add", "q", "A", "--now", "--key", "k1")[0])
    b = json.loads(qless("--json", "schedule", "add", "q", "B", "--now", "--key", "k1")[0])
    assert a["jid"] == b["jid"] and a["inserted"] and not b["inserted"]
    assert r.hget("ql:j:" + a["jid"], "klass") == "A" and r.hget("ql:j:" + a["jid"], "state") == "waiting"


def test_schedule_add_identical_entry_keeps_its_time(qless, r, raw, url):
    """An add that finds an identical entry pending adds nothing: --json gives
    the time that stands (not the one just asked for), the text form says
    so on stderr after the jid."""
    later = json.loads(qless("--json", "schedule", "add", "s1", "Clear", "--in", "1h")[0])
    stands = r.zscore("ql:q:s1-scheduled", later["jid"])
    assert later["inserted"] and abs(later["next"] - stands) < 0.001
    for flags in (["--now"], ["--in", "2h"], ["--at", "2099-01-01T00:00:00Z"]):
        got = json.loads(qless("--json", "schedule", "add", "s1", "Clear", *flags)[0])
        assert got == {"jid": later["jid"], "inserted": False, "kind": "at",
                       "next": pytest.approx(stands, abs=0.001)}, flags
        p = raw("--url", url, "schedule", "add", "s1", "Clear", *flags)
        assert p.returncode == 0 and p.stdout == later["jid"] + "\n", p
        said = re.fullmatch(r"qless: schedule add: already scheduled for (\S+)Z \(([\d.]+)\): nothing added\n",
                            p.stderr)
        assert said and said.group(1).startswith(time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(stands))), p.stderr
        assert float(said.group(2)) == pytest.approx(stands, abs=0.001)
    assert r.zscore("ql:q:s1-scheduled", later["jid"]) == stands and r.zcard("ql:q:s1-scheduled") == 1
    # an identical job that no longer waits for a time: no "next", its state
    first = json.loads(qless("--json", "schedule", "add", "s1", "A", "--now", "--key", "k")[0])
    got = json.loads(qless("--json", "schedule", "add", "s1", "B", "--now", "--key", "k")[0])
    assert got == {"jid": first["jid"], "inserted": False, "kind": "at", "next": None}
    p = raw("--url", url, "schedule", "add", "s1", "B", "--now", "--key", "k")
    assert (p.returncode, p.stdout, p.stderr) == (0, first["jid"] + "\n",
                                                  "qless: schedule add: already waiting: nothing added\n")
    # a template: its next due time, from the server
    ev = json.loads(qless("--json", "schedule", "add", "s1", "Ev", "--cron", "0 9 * * 1")[0])
    again = json.loads(qless("--json", "schedule", "add", "s1", "Ev", "--cron", "0 9 * * 1")[0])
    assert again == dict(ev, inserted=False) and again["next"] == r.zscore("ql:q:s1-cron", ev["jid"])
    # a new entry prints only its jid
    p = raw("--url", url, "schedule", "add", "s1", "Other", "--now")
    assert p.returncode == 0 and p.stderr == "" and len(p.stdout.strip()) == 40


def test_schedule_add_kinds_list_and_remove(qless, r, raw, url):
    at = qless("schedule", "add", "q", "At", "--at", "2099-01-01T00:00:00Z", "--priority", "3",
               "--tags", "x,y")[0].strip()
    assert r.zscore("ql:q:q-scheduled", at) == 4070908800
    assert r.hget("ql:j:" + at, "priority") == "3"
    got = json.loads(qless("--json", "schedule", "add", "q", "Ev", "--every", "monday 9am", "--backlog", "2")[0])
    assert got["kind"] == "cron" and got["inserted"]
    assert r.hget("ql:r:" + got["jid"], "cron") == "0 9 * * 1" and r.hget("ql:r:" + got["jid"], "backlog") == "2"
    assert r.zscore("ql:q:q-cron", got["jid"]) == got["next"]
    ev = got["jid"]
    # "Every" in any case is the word itself, not a second one
    again = json.loads(qless("--json", "schedule", "add", "q", "Ev", "--every", "Every Monday 9AM", "--backlog", "2")[0])
    assert again["jid"] == ev and again["inserted"] is False
    iv = qless("schedule", "add", "q", "Iv", "--every", "15m")[0].strip()
    assert float(r.hget("ql:r:" + iv, "interval")) == 900
    cr = qless("schedule", "add", "q", "Cr", "--cron", "@daily", "--jid", "daily")[0].strip()
    assert cr == "daily" and r.hget("ql:r:daily", "cron") == "@daily"
    # more than a minute in the past is refused, naming the time; nothing is added
    p = raw("--url", url, "schedule", "add", "q", "Past", "--at", "2020-01-01")
    assert p.returncode == 2 and p.stdout == ""
    assert p.stderr == ('qless: schedule add: when 2020-01-01T00:00:00Z is in the past (more than a minute'
                        ' before now); add it now (add_now, or the time "now") to run it at once\n')
    p = raw("--url", url, "schedule", "add", "q", "Ago", "--at", "5 minutes ago")
    assert p.returncode == 2 and "is in the past" in p.stderr
    # "now" (and --now) run at once
    now = raw("--url", url, "schedule", "add", "q", "Now", "--at", "now")
    assert now.returncode == 0 and r.hget("ql:j:" + now.stdout.strip(), "state") == "waiting"
    assert r.hget("ql:j:" + now.stdout.strip(), "klass") == "Now"
    table = lines(qless("schedule", "list", "q")[0])
    assert table[0].split() == ["JID", "KLASS", "SCHEDULE", "NEXT", "DESCRIPTION"]
    rows = {line.split()[0]: line for line in table[1:]}
    assert set(rows) == {at, ev, iv, "daily"}      # the "now" one is waiting: not an entry
    assert "cron 0 9 * * 1" in rows[ev] and "at 09:00 on Monday" in rows[ev]
    assert "every 15m" in rows[iv] and "at 2099-01-01T00:00:00Z" in rows[at] and "once" in rows[at]
    listed = json.loads(qless("--json", "schedule", "list", "q")[0])
    assert [e["jid"] for e in listed][-1] == at and {e["kind"] for e in listed} == {"cron", "interval", "at"}
    out, _ = qless("schedule", "remove", "q", at, ev)
    assert lines(out) == ["removed " + at, "removed " + ev]
    assert not r.exists("ql:j:" + at) and not r.exists("ql:r:" + ev)
    _, err = qless("schedule", "remove", "q", iv, "nope", code=1)
    assert err == "qless: schedule remove: not an entry of q: nope (removed 1 of 2)\n"
    assert not r.exists("ql:r:" + iv)


def test_recur_cron_agrees_with_the_server(qless, r):
    # CLI-4
    jid = qless("recur", "add", "q", "K", "--cron", "@daily")[0].strip()
    assert r.hget("ql:r:" + jid, "cron") == "@daily" and r.hget("ql:r:" + jid, "type") == "cron"
    due = r.zscore("ql:q:q-cron", jid)
    assert due % 86400 == 0 and 0 < due - time.time() <= 86400
    iso = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(due))
    assert lines(qless("recur", "next", jid, "2")[0]) == [
        "%s (%d)" % (iso, due), "%s (%d)" % (time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(due + 86400)),
                                             due + 86400)]
    view = dict(line.split(None, 1) for line in lines(qless("recur", "get", jid)[0]))
    assert view["cron"] == "@daily" and view["next"] == "%s (%d)" % (iso, due) and "interval" not in view
    qless("recur", "update", jid, "--cron", "0 6 * * *")
    six = r.zscore("ql:q:q-cron", jid)
    assert r.hget("ql:r:" + jid, "cron") == "0 6 * * *" and six % 86400 == 6 * 3600
    got = json.loads(qless("--json", "recur", "get", jid)[0])
    assert got["cron"] == "0 6 * * *" and got["interval"] == 0 and got["next"] == six
    assert len(lines(qless("recur", "next", jid)[0])) == 5
    row = [line for line in lines(qless("schedule", "list", "q")[0]) if line.startswith(jid)][0]
    assert "cron 0 6 * * *" in row and time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(six)) in row
    # --unique keeps the template; the jid is the entry's
    a = qless("recur", "add", "q", "K", "--cron", "0 6 * * MON", "--unique")[0].strip()
    assert qless("recur", "add", "q", "K", "--cron", "0 6 * * 1", "--unique")[0].strip() == a
    assert r.zcard("ql:q:q-cron") == 2
    # an interval template shows no cron
    iv = qless("recur", "add", "q", "K", "--interval", "1h")[0].strip()
    assert json.loads(qless("--json", "recur", "get", iv)[0])["cron"] is None


def test_recur_cron_bad_input_changes_nothing(qless, snapshot):
    jid = qless("recur", "add", "q", "K", "--cron", "0 * * * *")[0].strip()
    before = snapshot()
    for args in (["recur", "add", "q", "K", "--cron", "0 24 * * *"],
                 ["recur", "add", "q", "K", "--cron", "@daily", "--interval", "1h"],
                 ["recur", "add", "q", "K", "--cron", "@daily", "--offset", "1h"],
                 ["recur", "add", "q", "K", "--cron", "@daily", "--backlog", "1001"],
                 ["recur", "add", "q", "K", "--cron", "2020 1 1 * 0 0 0"],
                 ["recur", "update", jid, "--cron", "bad"],
                 ["recur", "update", jid, "--cron", "@daily", "--interval", "1h"],
                 ["recur", "update", jid, "--cron", "0 0 30 2 *"],
                 ["recur", "next", jid, "0"],
                 ["recur", "get", jid, "--unique"]):
        _, err = qless(*args, code=2)
        assert err.startswith("qless: recur ") and err.count("\n") == 1, args
    assert snapshot() == before
    assert "no recurring job nope" in qless("recur", "next", "nope", code=1)[1]


def test_put_unique(qless, r):
    out, _ = qless("--json", "put", "q", "K", '{"a": 1}', "--unique")
    first = json.loads(out)
    assert first["inserted"] is True and first["state"] == "waiting" and len(first["jid"]) == 40
    again = json.loads(qless("--json", "put", "q", "K", '{"a":1}', "--unique", "--delay", "1h")[0])
    assert again == {"jid": first["jid"], "inserted": False, "state": "waiting"}
    assert qless("put", "q", "K", '{"a":1}', "--unique")[0].strip() == first["jid"]
    keyed = json.loads(qless("--json", "put", "q", "K", "--unique", "--key", "k", "--delay", "1h")[0])
    assert keyed["state"] == "scheduled" and keyed["inserted"]
    assert r.zcard("ql:q:q-work") == 1 and r.zcard("ql:q:q-scheduled") == 1
    assert "--key needs --unique" in qless("put", "q", "K", "--key", "k", code=2)[1]


def test_schedule_add_text_refused_by_meaning(raw, url, r):
    """--at and --in take one time, --every a repeating one, read as the
    library reads them (qless_when_read); columns count in the text given."""
    cases = [
        (["--at", "every monday"], '--at: "every monday" is a cron schedule, not a one-off time; use --every or --cron'),
        (["--at", "every 2 days"], '--at: "every 2 days" is an interval, not a one-off time; use --every or --cron'),
        (["--every", "7pm tomorrow"], '--every: unexpected "7pm" at column 1'),
        (["--in", "5 blorps"], None),
    ]
    for flags, message in cases:
        p = raw("--url", url, "schedule", "add", "q", "K", *flags)
        assert p.returncode == 2 and p.stdout == "", (flags, p)
        line = p.stderr.strip()
        assert line.count("\n") == 0, line
        if message:
            assert line.endswith(message), (flags, line)
        else:
            assert "--in: " in line and "at column 3" in line, line
    assert r.dbsize() == 0



def test_schedule_add_day_first_and_weekday_warning(qless, raw, url, r):
    """--day-first reads a/b/c as day/month/year (month first without it); a
    weekday that is not the date's adds the entry at the date and says so on
    stderr ("warning" with --json); a weekday that agrees says nothing."""
    month = qless("schedule", "add", "q", "M", "--at", "4/5/2027 9am")[0].strip()
    day = qless("schedule", "add", "q", "D", "--at", "4/5/2027 9am", "--day-first")[0].strip()
    assert r.zscore("ql:q:q-scheduled", month) == 1806915600   # 2027-04-05T09:00Z
    assert r.zscore("ql:q:q-scheduled", day) == 1809421200     # 2027-05-04T09:00Z
    p = raw("--url", url, "schedule", "add", "q", "W", "--at", "Thu Aug 10 2027 9am")
    assert p.returncode == 0, p
    assert p.stderr == ("qless: schedule add: warning: 2027-08-10 is a Tuesday, not a Thursday; "
                        "the date is used\n")
    assert r.zscore("ql:q:q-scheduled", p.stdout.strip()) == 1817888400
    got = json.loads(qless("--json", "schedule", "add", "q", "W2", "--at", "Thu Aug 10 2027 9am")[0])
    assert got["inserted"] is True and got["next"] == 1817888400
    assert got["warning"].startswith("2027-08-10 is a Tuesday, not a Thursday")
    p = raw("--url", url, "schedule", "add", "q", "T", "--at", "Tue Aug 10 2027 9am")
    assert p.returncode == 0 and p.stderr == "", p
    assert "warning" not in json.loads(qless("--json", "schedule", "add", "q", "T2", "--in", "1h")[0])
    assert "--day-first takes no value" in raw("--url", url, "schedule", "add", "q", "K", "--in", "1h",
                                               "--day-first=1").stderr
