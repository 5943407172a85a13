import ArgumentParser
import SiteCore

/// A mistyped subcommand (`sitegen biuld`) named with the one it most likely meant: the argument
/// parser suggests options, not subcommands.
enum CommandSpelling {
    /// Exits with 64 when the first argument is neither an option nor a subcommand but close to one.
    static func checkSubcommand(_ arguments: ArraySlice<String>) {
        guard let first = arguments.first, !first.hasPrefix("-") else { return }
        let names = Sitegen.configuration.subcommands.map { $0._commandName } + ["help"]
        guard !names.contains(first), let guess = Spelling.nearest(to: first, among: names) else { return }
        let commands = names.dropLast().joined(separator: ", ")
        Terminal.error("error: unknown command '\(first)'; did you mean 'sitegen \(guess)'? (commands: \(commands))")
        Sitegen.exit(withError: ExitCode(64))
    }
}
