import Katana

/// The state of a mail client's session: 20 fields of strings and integers and two small arrays,
/// about 1 KiB when JSON-encoded (the program prints the exact size). The recorded session's
/// updaters change one or two fields each.
struct SessionState: State, Codable, Equatable {
    var userID = 1_042
    var userName = "ada.lovelace"
    var displayName = "Ada Lovelace"
    var email = "ada.lovelace@analytical-engine.example"
    var locale = "en_GB"
    var timeZone = "Europe/London"
    var theme = "dark"
    var currentScreen = "inbox"
    var searchQuery = ""
    var draftSubject = "Notes on the Analytical Engine"
    var draftBody = """
        The Analytical Engine has no pretensions whatever to originate anything. It can do whatever \
        we know how to order it to perform. It can follow analysis; but it has no power of \
        anticipating any analytical relations or truths. Its province is to assist us in making \
        available what we are already acquainted with. This it is calculated to effect primarily \
        and chiefly of course, through its executive faculties.
        """
    var signature = "A. A. L., London"
    var unreadCount = 1_000_000
    var selectedMessage = 0
    var scrollOffset = 0
    var pageSize = 50
    var syncGeneration = 0
    var lastSyncedAt = 1_795_000_000
    var networkStatus = "online"
    var notificationsEnabled = true
    var recentSearches = ["invoices", "travel", "bernoulli numbers", "babbage", "difference engine"]
    var labelCounts = [0, 3, 12, 7, 0, 1, 42, 5, 9, 2]
}
