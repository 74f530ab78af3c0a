/// The tokens of the side effects taken onto workers, oldest first: what the registry's monitor
/// and an announced wait look through, so that they look at a few tokens however many side
/// effects wait.
///
/// A job that leaves its worker is not looked for here: its token stays until the list reaches
/// its limit, and the next take prunes every token gone at once. The limit is twice the tokens
/// kept at the last prune plus ``slack``, so the list stays a few times as long as the jobs on
/// workers, and a job's way through costs an append (docs/history/performance.md, 2026-12-08).
/// Whether a token is still on its worker is the registry's to say.
struct TakenList<Token> {
    /// The tokens, oldest first; some may name jobs that have left their workers.
    private(set) var tokens: [Token] = []
    /// The length at which the next take prunes first.
    private(set) var limit = Self.slack

    /// How many tokens of jobs gone the list may hold beyond twice those kept at the last prune.
    static var slack: Int { 32 }

    /// Whether the registry should prune before it appends the next token.
    var isFull: Bool { tokens.count >= limit }

    /// Lists a job just taken onto a worker.
    mutating func append(_ token: Token) {
        tokens.append(token)
    }

    /// Keeps the tokens for which `isOnWorker` holds, in their order, and sets the next limit.
    mutating func prune(keeping isOnWorker: (Token) -> Bool) {
        var kept = 0
        for index in tokens.indices where isOnWorker(tokens[index]) {
            tokens[kept] = tokens[index]
            kept += 1
        }
        tokens.removeLast(tokens.count - kept)
        limit = 2 * kept + Self.slack
    }
}
