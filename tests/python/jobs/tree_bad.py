"""A tree class whose ports are malformed: the worker refuses to start."""


class BadPorts:
    inports = 5

    @staticmethod
    def process(job):
        pass
