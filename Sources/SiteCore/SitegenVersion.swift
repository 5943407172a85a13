/// sitegen's version: `sitegen --version`, and part of the note cache's key (SiteLoad's `NoteCache`).
public enum SitegenVersion {
    public static let current = "0.1.0"
}
