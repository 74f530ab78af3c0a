// The state diff this module draws in its failures lives in KatanaRecording (one implementation,
// shared with replays), as do the recordings a test replays: `import KatanaTesting` brings both.
@_exported import KatanaRecording
