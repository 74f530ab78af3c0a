"""The scenarios, in the order a full run takes them. Each is run(test), test being the PageTest."""

from . import correlation, ends, large, live, live_trim, recording, token

SCENARIOS = {
    "recording": recording.run,
    "ends": ends.run,
    "correlation": correlation.run,
    "large": large.run,
    "token": token.run,
    "live": live.run,
    "live-trim": live_trim.run,
}
