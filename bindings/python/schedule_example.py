import qless

client = qless.Client()  # $QLESS_URL, else the embedded server
tasks = client.schedules["example-tasks"]

jid = tasks.add("example.Report", {"to": "ops"}, cron="0 9 * * mon-fri")
again = tasks.add("example.Report", {"to": "ops"}, cron="0 9 * * MON-FRI", report=True)
print(again == (jid, False))  # adds are unique: the same entry is not added twice
tasks.add("example.Mail", {"to": "a@b"}, at="7pm tomorrow")
tasks.add("example.Ping", every="5 minutes")
for entry in tasks.entries():
    print(entry["kind"], entry["klass"])
print(qless.when("every monday 9am").cron)
# tasks.listen(pool=4, allow=["example.*"])  # runs due entries until SIGTERM
