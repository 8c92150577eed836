import Foundation
import PackagePlugin

/// Turns the dashboard's files (Sources/IMUWeb/Page: HTML, CSS, JavaScript) into Swift string
/// literals at build time, so the page is inside the `imu` binary: a static release binary copied
/// alone to a Pi serves it, with no resource bundle to find beside it.
@main
struct EmbedPage: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let module = target as? SourceModuleTarget else { return [] }
        let page = module.directoryURL.appending(path: "Page")
        let names = try FileManager.default.contentsOfDirectory(atPath: page.path(percentEncoded: false))
            .filter { !$0.hasPrefix(".") }.sorted()
        let inputs = names.map { page.appending(path: $0) }
        let output = context.pluginWorkDirectoryURL.appending(path: "PageAssets.swift")
        return [
            .buildCommand(
                displayName: "Embedding the dashboard page (\(names.joined(separator: ", ")))",
                executable: try context.tool(named: "EmbedPageTool").url,
                arguments: [output.path(percentEncoded: false)] + inputs.map { $0.path(percentEncoded: false) },
                inputFiles: inputs,
                outputFiles: [output])
        ]
    }
}
