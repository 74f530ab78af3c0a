"""What every part of the test shares: how a failed check is raised, and how progress is printed."""


class Failure(Exception):
    """A check failed, or something the test waited for did not happen."""


def log(message):
    print(message, flush=True)
