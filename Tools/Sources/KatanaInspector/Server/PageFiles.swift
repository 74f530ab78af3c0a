import Foundation

/// The page's files (index.html and the scripts and style sheets beside it), read once from the
/// package's resources; when they cannot be found, a page that says where they were looked for.
struct PageFiles: Sendable {
    /// The files by name, with their content types.
    let files: [String: (contentType: String, body: [UInt8])]
    /// Why the page is missing, when it is.
    let problem: String?

    /// The folder of the package's resources, looked for next to the program (where the package
    /// manager puts it), or where `KATANA_INSPECTOR_PAGE` says.
    static func load() -> PageFiles {
        var candidates: [String] = []
        if let override = ProcessInfo.processInfo.environment["KATANA_INSPECTOR_PAGE"] {
            candidates.append(override)
        }
        let bundleName = "KatanaTools_KatanaInspector.resources"
        let programFolder = URL(fileURLWithPath: CommandLine.arguments.first ?? ".").resolvingSymlinksInPath().deletingLastPathComponent()
        for folder in [Bundle.main.bundleURL, programFolder, Bundle.main.bundleURL.deletingLastPathComponent()] {
            candidates.append(folder.appendingPathComponent(bundleName).appendingPathComponent("Page").path)
            candidates.append(folder.appendingPathComponent(bundleName).path)
        }
        let types = ["html": "text/html; charset=utf-8", "js": "text/javascript; charset=utf-8", "css": "text/css; charset=utf-8"]
        for folder in candidates {
            guard FileManager.default.fileExists(atPath: folder + "/index.html"),
                  let names = try? FileManager.default.contentsOfDirectory(atPath: folder)
            else { continue }
            var files: [String: (String, [UInt8])] = [:]
            for name in names {
                guard let type = types[URL(fileURLWithPath: name).pathExtension],
                      let data = FileManager.default.contents(atPath: folder + "/" + name)
                else { continue }
                files[name] = (type, [UInt8](data))
            }
            return PageFiles(files: files, problem: nil)
        }
        return PageFiles(
            files: [:],
            problem: "The inspector's page files (index.html and its scripts) were not found; looked in: "
                + candidates.joined(separator: ", ")
                + ". Keep the \(bundleName) folder next to the katana-inspector program, or set KATANA_INSPECTOR_PAGE to the folder "
                + "that holds them. The API under /api still answers."
        )
    }
}
