"""Python job class for the cross-language test: records who ran it."""


class Echo:
    @staticmethod
    def process(job):
        data = job.data
        data["ran_in"] = "python"
        job.data = data
