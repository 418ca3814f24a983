"""`qless when` and `qless cron check` (schedules.md §8, CLI-1 and the check
half of CLI-2): schedule text read without a server, errors as usage errors
with the library's reason, nothing written."""
import json
import time

N_ISO = "2026-03-04T10:15:30Z"   # N = 1772619330, a Wednesday


def test_when_prints_a_time(qless):
    # CLI-1
    out, _ = qless("when", "7pm tomorrow", "--from", N_ISO)
    assert out == "at 2026-03-05T19:00:00Z (1772737200)\n"
    # words may come unquoted; --from takes epoch seconds too
    out, _ = qless("when", "in", "0.5", "seconds", "--from", "1772619330")
    assert out == "at 2026-03-04T10:15:30.5Z (1772619330.5)\n"


def test_when_unknown_word_is_a_usage_error(qless):
    # CLI-1
    _, err = qless("when", "tomorow", code=2)
    assert err == 'qless: when: unknown word "tomorow" at column 1\n'
    _, err = qless("when", "every day at 9:30 and 17:00", code=2)
    assert err == 'qless: when: times need the same minute and second "17:00" at column 23\n'


def test_when_intervals_and_cron(qless):
    out, _ = qless("when", "every 2 days at 9am", "--from", N_ISO)
    assert out == "every 172800s from 2026-03-05T09:00:00Z\n"
    out, _ = qless("when", "every mon, wed and fri at 07:15", "--offline")
    assert out == "cron 15 7 * * 1,3,5\n"


def test_when_cron_prints_the_next_three_fire_times(qless, raw, r):
    # the server's cron.next, read at --from (a fire time at --from counts)
    out, _ = qless("when", "every mon, wed and fri at 07:15", "--from", N_ISO)
    assert out.splitlines() == ["cron 15 7 * * 1,3,5", "2026-03-06T07:15:00Z (1772781300)",
                                "2026-03-09T07:15:00Z (1773040500)", "2026-03-11T07:15:00Z (1773213300)"]
    out, _ = qless("when", "every day at 10:15:30", "--from", "1772619330")
    assert out.splitlines()[1:] == ["2026-03-04T10:15:30Z (1772619330)", "2026-03-05T10:15:30Z (1772705730)",
                                    "2026-03-06T10:15:30Z (1772792130)"]
    # without --from: from now on
    out, _ = qless("when", "every minute")
    times = [float(line.split("(")[1].rstrip(")")) for line in out.splitlines()[1:]]
    assert len(times) == 3 and times[0] >= time.time() - 1 and times[2] - times[0] == 120
    assert r.dbsize() == 0
    # --offline: no server, no fire times; a server that is not there is an error
    p = raw("--url", "redis://127.0.0.1:1", "when", "every day at 9am", "--offline")
    assert (p.returncode, p.stdout, p.stderr) == (0, "cron 0 9 * * *\n", "")
    p = raw("--url", "redis://127.0.0.1:1", "when", "every day at 9am")
    assert p.returncode == 1 and p.stdout == "" and p.stderr.startswith("qless: when: "), p
    # the help says so
    out, _ = qless("when", "--help")
    assert "next 3 fire times" in out and "not printed yet" not in out and "none are printed" not in out


def test_when_json(qless):
    out, _ = qless("--json", "when", "every 90s", "--from", N_ISO)
    assert json.loads(out) == {"kind": "interval", "at": 1772619330, "interval": 90, "cron": ""}
    out, _ = qless("when", "every last friday of the month at 17:00", "--json", "--offline")
    assert json.loads(out) == {"kind": "cron", "at": 0, "interval": 0, "cron": "0 17 * * 5L"}
    out, _ = qless("when", "every last friday of the month at 17:00", "--json", "--from", N_ISO)
    assert json.loads(out) == {"kind": "cron", "at": 0, "interval": 0, "cron": "0 17 * * 5L", "next": [
        {"at": "2026-03-27T17:00:00Z", "epoch": 1774630800}, {"at": "2026-04-24T17:00:00Z", "epoch": 1777050000},
        {"at": "2026-05-29T17:00:00Z", "epoch": 1780074000}]}
    out, _ = qless("when", "2026-12-01T09:00:00.250Z", "--json")
    assert json.loads(out) == {"kind": "at", "at": 1796115600.25, "interval": 0, "cron": ""}


def test_when_bad_arguments(qless):
    for argv, reason in [
        (["when"], "needs TEXT"),
        (["when", ""], "empty text"),
        (["when", "now", "--from", "yesterday"], "--from needs epoch seconds or an ISO 8601 time"),
        (["when", "now", "--from", "2026-02-30"], "--from needs"),
        (["when", "now", "--from"], "--from needs a value"),
        (["when", "now", "--colour"], "unknown option --colour"),
        (["when", "now", "--offline=1"], "--offline takes no value"),
    ]:
        _, err = qless(*argv, code=2)
        assert err.startswith("qless: when: ") and reason in err, (argv, err)


def test_when_and_cron_check_need_no_server(raw, r):
    # a URL where nothing listens: neither command connects
    for argv in (["when", "now", "--from", "5"], ["when", "every day", "--offline"], ["cron", "check", "@hourly"]):
        p = raw("--url", "redis://127.0.0.1:1", *argv)
        assert p.returncode == 0, p.stderr
    assert r.dbsize() == 0


def test_cron_check_prints_normal_form_and_description(qless):
    out, _ = qless("cron", "check", "  0 9 * *   mon-fri ")
    assert out == "0 9 * * MON-FRI\nat 09:00 on Monday through Friday\n"
    # fields may come as separate words
    out, _ = qless("cron", "check", "0", "12", "L", "*", "*")
    assert out == "0 12 L * *\nat 12:00 on the last day of the month\n"
    out, _ = qless("--json", "cron", "check", "@DAILY")
    assert json.loads(out) == {"cron": "@daily", "description": "at 00:00 every day"}


def test_cron_check_tells_a_step_by_the_values_it_selects(qless):
    # 5/5 in day-of-week: Friday occurrences 1, 6, ... of the month = the 1st only
    out, _ = qless("cron", "check", "0 0 * * 5/5")
    assert out == "0 0 * * 5/5\nat 00:00 on the 1st Friday of the month\n"
    out, _ = qless("cron", "check", "0 0 * * 1-5/2")
    assert out == "0 0 * * 1-5/2\nat 00:00 on Monday, Wednesday and Friday\n"
    out, _ = qless("cron", "check", "*/7 * * * *")
    assert out == "*/7 * * * *\nat every 7th minute from 0 through 56 of every hour\n"


def test_when_every_nth_weekday_past_the_2nd_is_refused_with_both_readings(qless):
    for nth in ("3rd", "4th", "5th"):
        _, err = qless("when", "every %s friday" % nth, "--offline", code=2)
        assert ('say "every %s friday of the month" or "every %s weeks on friday"' % (nth, nth[0])) in err


def test_cron_check_invalid_is_a_usage_error(qless, snapshot):
    # CLI-2, the check half: exit 2 with the §2.6 reason; nothing written
    before = snapshot()
    for expr, reason in [
        ("0 24 * * *", "hour field: value 24 out of range 0-23"),
        ("0 30 9 * * 1-5", "expected 5 or 7 fields, got 6"),
        ("0 9 * * FUNDAY", 'day-of-week field: bad token "FUNDAY"'),
        ("0 9 * * FRI-MON", "day-of-week field: range 5-1 is reversed"),
        ("@reboot", 'unknown macro "@reboot"'),
        ("   ", "empty expression"),
    ]:
        _, err = qless("cron", "check", expr, code=2)
        assert err == 'qless: cron check: Arg "cron" invalid: %s\n' % reason
    for argv in (["cron"], ["cron", "check"], ["cron", "nxt", "@daily"], ["cron", "check", "@daily", "--x"]):
        _, err = qless(*argv, code=2)
        assert err.startswith("qless: cron")
    assert snapshot() == before


def test_when_day_first(qless):
    # month first by default; --day-first reads a/b/c as day/month/year
    out, _ = qless("when", "3/4/2027", "--from", N_ISO, "--offline")
    assert out == "at 2027-03-04T00:00:00Z (1804118400)\n"
    out, _ = qless("when", "3/4/2027", "--day-first", "--from", N_ISO, "--offline")
    assert out == "at 2027-04-03T00:00:00Z (1806710400)\n"
    out, _ = qless("when", "3/4/2027", "--day-first", "--json", "--from", N_ISO, "--offline")
    assert json.loads(out) == {"kind": "at", "at": 1806710400, "interval": 0, "cron": ""}
    _, err = qless("when", "3/32/2027", "--day-first", "--from", N_ISO, code=2)
    assert err == 'qless: when: invalid date "3/32/2027" at column 1\n'
    _, err = qless("when", "now", "--day-first=1", code=2)
    assert "--day-first takes no value" in err


def test_when_warns_when_the_weekday_is_not_the_dates(qless, raw):
    # the date wins; the warning says so (stderr, or "warning" in --json)
    p = raw("when", "Thu Aug 10", "--from", N_ISO, "--offline")
    assert p.returncode == 0 and p.stdout == "at 2026-08-10T00:00:00Z (1786320000)\n", p
    assert p.stderr == ("qless: when: warning: 2026-08-10 is a Monday, not a Thursday (it is in 2028); "
                        "the date is used\n")
    out, _ = qless("when", "Thu Aug 10", "--json", "--from", N_ISO, "--offline")
    assert json.loads(out) == {"kind": "at", "at": 1786320000, "interval": 0, "cron": "",
                               "warning": "2026-08-10 is a Monday, not a Thursday (it is in 2028); the date is used"}
    # a weekday that agrees: no warning
    p = raw("when", "Mon Aug 10", "--from", N_ISO, "--offline")
    assert p.returncode == 0 and p.stderr == "", p
