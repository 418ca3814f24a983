"""The dashboard in a real browser (headless Chromium) over `qless web` on a
seeded data set: every page draws, retry-all moves failed jobs, search by
tag, paging through 10,000 jobs, a count changing live, a job tree drawn."""
import json
import os
import re
import subprocess
import time
import urllib.request

import pytest
from selenium.webdriver.support.ui import Select

from conftest import BIG, CLI, ROOT, start_web, stop_web

# hash route -> (data-page, CSS selector that must exist, text the page must show)
PAGES = [
    ("/queues", "queues", "td[data-queue='big'][data-field='waiting']", "flaky"),
    ("/queues/mail?state=waiting", "queue", "table[data-list='jobs'] a.jid", "mail-vip-0"),
    ("/queues/work?state=running", "queue", "svg.hist", "work-run"),
    ("/queues/work?state=depends", "queue", "table[data-list='jobs'] a.jid", "work-1"),
    ("/queues/reports?state=recurring", "queue", "table[data-list='jobs']", "rec-daily"),
    ("/jobs/work-1", "job", "pre[data-job-data]", "mail-plain-0"),
    ("/failed", "failed", "td[data-group-count='boom']", "boom"),
    ("/failed/boom", "failed-group", "table[data-list='jobs'] a.jid", "flaky-0"),
    ("/workers", "workers", "table[data-list='workers']", "w-busy"),
    ("/workers/w-busy", "worker", "table[data-list='jobs'] a.jid", "work-run"),
    ("/tracked", "tracked", "table[data-list='jobs'] a.jid", "work-run"),
    ("/recurring", "recurring", "table[data-list='recurring']", "rec-hourly"),
    ("/schedules", "schedules", "table[data-list='schedules'] a", "app"),
    ("/trees/tree-root", "tree", ".tree-node", "shard-1"),
    ("/search?tag=vip", "search", "table[data-list='jobs'] a.jid", "mail-vip-3"),
    ("/config", "config", "table[data-list='config']", "heartbeat"),
]


@pytest.mark.parametrize("route,page,selector,text", PAGES, ids=[p[0] for p in PAGES])
def test_page_draws(browser, route, page, selector, text):
    view = browser.page(route)
    assert view.get_attribute("data-page") == page
    assert browser.error_text() == ""
    assert browser.find_all(selector), "%s: nothing matches %s" % (route, selector)
    assert text in view.text
    assert browser.console_problems() == []


def test_job_detail_shows_data_history_and_dependencies(browser):
    view = browser.page("/jobs/work-1")
    data = browser.find("pre[data-job-data]").text
    # Pretty-printed: one key a line, and markup in the data stays text.
    assert '"text": "<b>not markup</b>"' in data
    assert "\n" in data and not browser.find_all("pre[data-job-data] b")
    deps = browser.find("[data-deps='dependencies']").text
    assert "mail-plain-0" in deps
    assert "put" in browser.find("ol.timeline").text
    assert browser.find("[data-job-state]").get_attribute("data-job-state") == "depends"
    assert not browser.find_all("[data-tree-link]")
    browser.page("/jobs/mail-plain-0")
    assert "work-1" in browser.find("[data-deps='dependents']").text
    browser.page("/jobs/tree-a")
    browser.find("[data-tree-link]").click()
    browser.wait_ready("#/trees/tree-a")
    assert view is not None


def test_readme_screenshots(browser):
    """The README's two pictures, taken on the seeded data before the
    tests below change it; written only with QLESS_WEB_SCREENSHOTS=1."""
    for route, name, selector in (("/queues", "queues.png", "td[data-queue='big']"),
                                  ("/trees/tree-root", "tree.png", ".tree-node .tree-node")):
        browser.page(route)
        assert browser.find_all(selector) and browser.error_text() == ""
        if os.environ.get("QLESS_WEB_SCREENSHOTS") == "1":
            os.makedirs(os.path.join(ROOT, "docs", "images"), exist_ok=True)
            browser.d.save_screenshot(os.path.join(ROOT, "docs", "images", name))


def test_missing_job_shows_the_servers_error(browser):
    browser.page("/jobs/no-such-jid")
    assert "no-such-jid" in browser.error_text()


def test_retry_all_moves_the_failed_jobs(browser, r, seeded):
    browser.page("/failed")
    assert browser.find("td[data-group-count='boom']").text == "3"
    button = browser.find("button[data-action='retry-all']")
    button.click()  # arms
    assert "Really" in button.text
    button.click()
    browser.wait(lambda: "retried 3" in browser.find("#notice").text, message="no retry-all notice")
    browser.wait_ready()
    browser.wait(lambda: not browser.find_all("td[data-group-count='boom']"), message="group still listed")
    view = browser.page("/queues/flaky?state=waiting")
    for jid in seeded["failed"]:
        assert jid in view.text
        assert r.hget("ql:j:" + jid, "state") == "waiting"


def test_search_by_tag(browser, seeded):
    browser.page("/search")
    form = browser.find("form[data-form='search']")
    form.find_element("name", "tag").send_keys("vip")
    browser.find("button[data-action='search']").click()
    browser.wait_ready("#/search?tag=vip")
    found = sorted(a.text for a in browser.find_all("table[data-list='jobs'] a.jid"))
    assert found == sorted(seeded["vip"])
    # Combined with a queue it narrows; with another queue nothing is left.
    browser.page("/search?tag=mail&queue=mail")
    assert len(browser.find_all("table[data-list='jobs'] a.jid")) == 7
    browser.page("/search?tag=vip&queue=work")
    assert browser.find_all("table[data-list='jobs'] tr.empty")
    # A jid prefix from the form, then class, exact jid and worker by route.
    browser.page("/search")
    form = browser.find("form[data-form='search']")
    form.find_element("name", "jid").send_keys("mail-vip-")
    Select(form.find_element("name", "match")).select_by_value("prefix")
    browser.find("button[data-action='search']").click()
    browser.wait_ready("#/search?prefix=mail-vip-")
    assert sorted(_jids(browser)) == sorted(seeded["vip"])
    for route, jids in (("/search?class=Mailer&tag=vip", seeded["vip"]),
                        ("/search?jid=work-1", ["work-1"]),
                        ("/search?worker=w-busy", ["work-run"]),
                        ("/search?prefix=big-0999&queue=big&limit=100", ["big-0999%d" % i for i in range(10)])):
        browser.page(route)
        assert browser.error_text() == ""
        assert sorted(_jids(browser)) == sorted(jids), route


def _info(browser):
    info = browser.find(".page-info")
    return info.get_attribute("data-offset"), info.get_attribute("data-total"), info.text


def _jids(browser):
    return [a.text for a in browser.find_all("table[data-list='jobs'] a.jid")]


def test_paging_through_ten_thousand_jobs(browser):
    browser.page("/queues/big?state=waiting")
    assert _info(browser) == ("0", str(BIG), "1–25 of %d" % BIG)
    first = _jids(browser)
    assert len(first) == 25
    browser.find("button[data-page-btn='next']").click()
    browser.wait(lambda: _info(browser)[0] == "25")
    second = _jids(browser)
    assert len(second) == 25 and not set(first) & set(second)
    browser.find("button[data-page-btn='last']").click()
    browser.wait(lambda: _info(browser)[0] == str(BIG - 25))
    assert _info(browser)[2] == "%d–%d of %d" % (BIG - 24, BIG, BIG)
    assert browser.find("button[data-page-btn='next']").get_attribute("disabled") is not None
    Select(browser.find("select[data-page-size]")).select_by_value("500")
    browser.wait(lambda: _info(browser)[2] == "1–500 of %d" % BIG)
    assert len(_jids(browser)) == 500
    seen = set()
    for _ in range(3):
        seen.update(_jids(browser))
        before = _info(browser)[0]
        browser.find("button[data-page-btn='next']").click()
        browser.wait(lambda: _info(browser)[0] != before)
    assert len(seen) == 1500


def test_counts_and_job_state_change_live(browser, cli):
    browser.page("/queues")
    browser.d.execute_script("window.__noReload = 42;")
    browser.wait(lambda: browser.find("#live").text == "live", message="event stream not open")
    cell = "td[data-queue='%s'][data-field='waiting']"
    assert not browser.find_all(cell % "live")
    cli("put", "live", "Live.Job", "{}", "--jid", "live-1")
    browser.wait(lambda: browser.find_all(cell % "live") and browser.find(cell % "live").text == "1",
                 message="new queue's count never appeared")
    cli("put", "live", "Live.Job", "{}", "--jid", "live-2")
    browser.wait(lambda: browser.find(cell % "live").text == "2", message="count did not change live")
    assert browser.d.execute_script("return window.__noReload;") == 42

    browser.page("/jobs/live-1")
    browser.d.execute_script("window.__noReload = 43;")
    browser.wait(lambda: browser.find("#live").text == "live")
    assert browser.find("[data-job-state]").get_attribute("data-job-state") == "waiting"
    # A pop of an untracked job publishes nothing; its completion does.
    cli("pop", "live", worker="w-live")
    cli("complete", "live-1", worker="w-live")
    browser.wait(lambda: browser.find("[data-job-state]").get_attribute("data-job-state") == "complete",
                 message="job state did not change live")
    assert browser.d.execute_script("return window.__noReload;") == 43

    # A queue's tabs count live too (live-2 waits; a put makes it 2).
    browser.page("/queues/live?state=waiting")
    browser.d.execute_script("window.__noReload = 44;")
    badge = "a[data-tab='waiting'] .badge"
    assert browser.find(badge).text == "1"
    browser.wait(lambda: browser.find("#live").text == "live")
    cli("put", "live", "Live.Job", "{}", "--jid", "live-3")
    browser.wait(lambda: browser.find(badge).text == "2", message="tab count did not change live")
    assert browser.d.execute_script("return window.__noReload;") == 44


def test_job_tree_is_drawn(browser):
    browser.page("/trees/tree-root")
    root = browser.find(".tree-node[data-tree-jid='tree-root']")
    nested = root.find_elements("css selector", ".tree-children .tree-node")
    assert sorted(n.get_attribute("data-tree-jid") for n in nested) == ["tree-a", "tree-a1", "tree-b"]
    # shard-1 is drawn inside extract's box, not beside it.
    extract = browser.find(".tree-node[data-tree-jid='tree-a']")
    assert extract.find_elements("css selector", ".tree-node[data-tree-jid='tree-a1']")
    for node in [root] + nested:
        assert re.search(r"status-\w+", node.get_attribute("class"))
    port_in = browser.find("table[data-list='ports-in']").text
    assert re.search(r"\bin\s+2\b", port_in), port_in
    assert "nightly-pipeline" in browser.find("[data-list='aliases']").text
    state = browser.find("table[data-list='state']").text
    assert "progress" in state and '"done": 2' in state
    # The subscribers of the channels the tree's ports link to: extract's
    # input port listens on /orders.
    api = _api(browser, "/api/trees/tree-root")
    assert api["subscribers"] == [{"channel": "/orders", "total": 1, "jobs": [{"jid": "tree-a", "port": "in"}]}]
    subs = browser.find("table[data-list='subscribers']")
    assert "/orders" in subs.text and "No subscribers" not in subs.text
    assert subs.find_elements("css selector", "[data-subscriber='tree-a:in'] a[href='#/trees/tree-a']")
    statuses = {n.get_attribute("data-tree-jid"): n.find_element("css selector", ".tree-head .state").text
                for n in [root] + nested}
    assert statuses == {"tree-root": "running", "tree-a": "waiting", "tree-a1": "waiting",
                        "tree-b": "terminated"}
    browser.page("/trees/tree-a")
    assert "/orders" in browser.find("table[data-list='ports-in']").text
    browser.page("/trees/tree-b")   # no ports in its tree
    assert "No subscribers" in browser.find("table[data-list='subscribers']").text


def _api(browser, path):
    with urllib.request.urlopen(browser.base + path, timeout=10) as res:
        return json.loads(res.read())


def test_read_only_mode_shows_no_actions(browser, sock):
    proc, base = start_web(sock, "--read-only")
    try:
        view = browser.page("/queues", base=base)
        assert view.get_attribute("data-page") == "queues" and browser.find_all("td[data-queue='big']")
        assert not browser.find_all("button.action")
        browser.page("/jobs/work-1", base=base)
        assert not browser.find_all("button.action")
        assert "read-only" in browser.find("#session").text
    finally:
        stop_web(proc)


def test_actions_post_with_the_csrf_token(browser, r):
    """Priority, tags and tracking from the job page and pause/unpause from
    the queues page reach the database (each a POST the server would refuse
    without the session's token)."""
    browser.page("/jobs/mail-plain-1")
    box = browser.find("[data-input='priority']")
    box.clear()
    box.send_keys("7")
    browser.act("button[data-action='priority']")
    assert r.hget("ql:j:mail-plain-1", "priority") == "7"
    browser.find("[data-input='add-tags']").send_keys("urgent, eu")
    browser.act("button[data-action='add-tags']")
    assert "urgent" in r.hget("ql:j:mail-plain-1", "tags")
    assert "eu" in browser.find("dl.facts").text
    browser.act("button[data-action='track']")
    assert r.zscore("ql:tracked", "mail-plain-1") is not None
    assert browser.find_all("button[data-action='untrack']")

    browser.page("/queues")
    row = "tr[data-queue-row='mail'] "
    browser.act(row + "button[data-action='pause']")
    assert _api(browser, "/api/queues/mail")["paused"] is True
    assert browser.find(row + "td[data-field='paused']").text == "paused"
    browser.act(row + "button[data-action='unpause']")
    assert _api(browser, "/api/queues/mail")["paused"] is False
    assert browser.find(row + "td[data-field='paused']").text == ""
    assert browser.error_text() == ""


def test_a_refused_action_shows_the_servers_message(browser, r):
    # mail-plain-0 is a dependency of work-1: qless refuses to cancel it alone.
    browser.page("/jobs/mail-plain-0")
    cancel = browser.find("button[data-action='cancel']")
    cancel.click()
    cancel.click()
    browser.wait(lambda: browser.error_text(), message="no error shown")
    assert "work-1" in browser.error_text()
    assert r.hget("ql:j:mail-plain-0", "state") == "waiting"
    assert cancel.is_enabled()


def test_histograms_follow_the_chosen_day(browser):
    browser.page("/queues/work?state=running")
    assert "count 1," in browser.find("[data-hist='wait']").text   # work-run's pop, today
    assert browser.find_all("[data-hist='wait'] rect.bar[height='90']")  # the tallest bar
    day = browser.find("input[data-input='date']")
    browser.d.execute_script(
        "arguments[0].value = '2020-01-01'; arguments[0].dispatchEvent(new Event('change'));", day)
    browser.wait_ready("#/queues/work?state=running&date=2020-01-01")
    assert "count 0," in browser.find("[data-hist='wait']").text
    assert not browser.find_all("[data-hist='wait'] rect.bar[height='90']")


def _log_in(browser, user, password):
    form = browser.find("form[data-form='login']")
    form.find_element("name", "user").send_keys(user)
    form.find_element("name", "password").send_keys(password)
    form.find_element("css selector", "button[type='submit']").click()


def test_login_form_and_roles(browser, sock, tmp_path):
    hashed = subprocess.run([CLI, "web", "hash-password"], input="s3cret", capture_output=True,
                            text=True, timeout=30, check=True).stdout.strip()
    users = tmp_path / "users"
    users.write_text("ada:admin:%s\nvic:read:%s\n" % (hashed, hashed))
    proc, base = start_web(sock, "--auth-file", str(users))
    try:
        browser.d.delete_all_cookies()
        browser.d.get(base + "/#/queues")
        browser.wait(lambda: "/login" in browser.d.current_url, message="not sent to the login form")
        _log_in(browser, "vic", "wrong")
        browser.wait(lambda: "failed=1" in browser.d.current_url and browser.find("#login-failed").is_displayed())
        _log_in(browser, "vic", "s3cret")
        browser.wait_ready("#/queues")
        assert browser.find_all("td[data-queue='big']")
        assert browser.find("#session").text == "vic · read-only"
        assert not browser.find_all("button.action")
        browser.find("#logout").click()
        browser.wait(lambda: "/login" in browser.d.current_url, message="not logged out")
        _log_in(browser, "ada", "s3cret")
        browser.wait_ready("#/queues")
        assert browser.find("#session").text == "ada · admin"
        assert browser.find_all("button[data-action='pause']")
        assert browser.console_problems() == []
    finally:
        stop_web(proc)
        browser.d.delete_all_cookies()


def test_names_with_odd_characters(browser, cli):
    """A queue, jid and tag holding '/', '#', '?', '%', spaces and non-ASCII
    reach their pages and back (each escaped in the route and the API path)."""
    queue, jid, tag = "odd/q #1?x=%41 ü", "odd jid/#1", "t/a g#?"
    cli("put", queue, "Odd.Job", '{"k": "v"}', "--jid", jid, "--tags", tag)
    browser.page("/queues")
    row = [tr for tr in browser.find_all("tr[data-queue-row]") if tr.get_attribute("data-queue-row") == queue]
    assert row, "no row for the odd queue"
    row[0].find_element("css selector", "td a").click()
    browser.wait(lambda: browser.find("#view").get_attribute("data-page") == "queue"
                 and browser.find("#view").get_attribute("data-ready"))
    assert browser.find("h1 .name").text == queue
    assert _jids(browser) == [jid]
    browser.find("table[data-list='jobs'] a.jid").click()
    browser.wait(lambda: browser.find("#view").get_attribute("data-page") == "job"
                 and browser.find("#view").get_attribute("data-ready"))
    assert browser.error_text() == ""
    assert browser.find("h1 .name").text == jid
    browser.find("dl.facts a.tag").click()
    browser.wait(lambda: browser.find("#view").get_attribute("data-page") == "search"
                 and browser.find("#view").get_attribute("data-ready"))
    assert browser.find("form[data-form='search'] input[name='tag']").get_attribute("value") == tag
    assert _jids(browser) == [jid]


def test_retry_and_cancel_one_job(browser, cli, r):
    cli("put", "solo", "Solo.Job", "{}", "--jid", "solo-1")
    cli("pop", "solo", worker="w-solo")
    cli("fail", "solo-1", "solo-group", "ValueError: once", worker="w-solo")
    browser.page("/jobs/solo-1")
    assert browser.find("[data-job-state]").get_attribute("data-job-state") == "failed"
    assert "ValueError: once" in browser.find(".failure-box").text
    browser.act("button[data-action='retry']")
    assert r.hget("ql:j:solo-1", "state") == "waiting"
    assert browser.find("[data-job-state]").get_attribute("data-job-state") == "waiting"
    cancel = browser.find("button[data-action='cancel']")
    cancel.click()
    cancel.click()
    browser.wait_ready("#/queues/solo")
    assert not r.exists("ql:j:solo-1")


def test_search_pages_by_cursor(browser):
    """Search pages by the server's cursor: next, next, prev and first show
    the right jobs, and there is no jump to the last page."""
    def page_of(n):
        return ["big-%05d" % i for i in range(25 * n, 25 * n + 25)]
    browser.page("/search?prefix=big-")
    assert _jids(browser) == page_of(0)
    assert not browser.find_all("button[data-page-btn='last']")
    for n in (1, 2):
        browser.find("button[data-page-btn='next']").click()
        browser.wait(lambda: _jids(browser) == page_of(n), message="page %d" % n)
    browser.find("button[data-page-btn='prev']").click()
    browser.wait(lambda: _jids(browser) == page_of(1), message="back to page 1")
    browser.find("button[data-page-btn='first']").click()
    browser.wait(lambda: _jids(browser) == page_of(0), message="back to the first page")
    assert browser.find("button[data-page-btn='prev']").get_attribute("disabled") is not None


def test_recurring_shows_cron_english_and_next_times(browser):
    browser.page("/recurring")
    rows = {tr.find_element("css selector", "a.jid").text: tr
            for tr in browser.find_all("table[data-list='recurring'] tbody tr")}
    daily = rows["rec-daily"]
    assert "0 6 * * *" in daily.text and "at 06:00 every day" in daily.text
    times = [li.text for li in daily.find_elements("css selector", "ul li")]
    assert len(times) == 3 and all(t.endswith("06:00:00Z") for t in times), times
    hourly = rows["rec-hourly"]
    assert "every hour" in hourly.text and len(hourly.find_elements("css selector", "ul li")) == 3


def test_schedules_show_next_runs_and_entries(browser):
    browser.page("/schedules")
    rows = {tr.find_element("css selector", "a").text: tr
            for tr in browser.find_all("table[data-list='schedules'] tbody tr")}
    assert rows["app"].text.endswith("09:00:00Z"), rows["app"].text
    rows["app"].find_element("css selector", "a").click()
    browser.wait_ready("#/schedules/app")
    entry = browser.find("table[data-list='entries'] tbody tr").text
    assert "cron 0 9 * * 1" in entry and "at 09:00 on Monday" in entry and "09:00:00Z" in entry
    assert browser.find_all("table[data-list='entries'] a.jid")     # the unique jid, linked


def test_cancel_all_repeats_past_the_per_request_cap(browser, r):
    # 5,100 failed jobs: more than one request moves (5,000), so the page
    # must ask again until none remain. Seeded by pipelined protocol calls.
    with open(os.environ["QLESS_LUA_SCRIPT"]) as f:
        sha = r.script_load(f.read())
    now, n = time.time(), 5100
    pipe = r.pipeline(transaction=False)
    for i in range(n):
        pipe.evalsha(sha, 0, "put", now, "", "mass", "mass-%05d" % i, "Mass.Job", "{}", 0)
    for _ in range(0, n, 1000):
        pipe.evalsha(sha, 0, "pop", now, "mass", "w-mass", 1000)
    for i in range(n):
        pipe.evalsha(sha, 0, "fail", now, "mass-%05d" % i, "w-mass", "mass", "overload")
    pipe.execute()
    assert r.llen("ql:f:mass") == n
    browser.page("/failed/mass")
    button = browser.find("button[data-action='cancel-all']")
    button.click()  # arms
    button.click()
    browser.wait(lambda: "cancelled 5100 jobs of mass" in browser.find("#notice").text, timeout=60,
                 message="cancel-all did not report all 5,100 jobs")
    assert r.llen("ql:f:mass") == 0 and not r.exists("ql:j:mass-05099")
