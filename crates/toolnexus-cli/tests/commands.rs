//! Every command has its file: for each subcommand clap knows, `src/commands/<name>.rs`
//! (`check-schema` in `check_schema.rs`) holds its arguments and its body, and every file
//! there is a command's. A command added to `src/cli.rs` alone, or a file left behind by a
//! command taken out, is named.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::fs;
use std::path::Path;

use clap::CommandFactory;
use toolnexus_cli::cli::Cli;

/// The files of `src/commands/` that are no command: the module's own.
const NOT_COMMANDS: [&str; 1] = ["mod.rs"];

/// The file that holds `command`.
fn file_of(command: &str) -> String {
    format!("{}.rs", command.replace('-', "_"))
}

/// The commands among `commands` that have no file among `files`, and the files that are no
/// command's.
fn unmatched(commands: &[String], files: &[String]) -> (Vec<String>, Vec<String>) {
    let expected: Vec<String> = commands.iter().map(|c| file_of(c)).collect();
    let without_file = commands
        .iter()
        .zip(&expected)
        .filter(|(_, file)| !files.contains(file))
        .map(|(command, _)| command.clone())
        .collect();
    let without_command = files
        .iter()
        .filter(|file| !expected.contains(file) && !NOT_COMMANDS.contains(&file.as_str()))
        .cloned()
        .collect();
    (without_file, without_command)
}

/// The names of the files (not the folders) in `dir`.
fn files_in(dir: &Path) -> Vec<String> {
    let mut files: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.is_file())
        .map(|path| path.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    files.sort();
    files
}

#[test]
fn every_command_has_its_file_and_every_file_a_command() {
    let commands: Vec<String> = Cli::command()
        .get_subcommands()
        .map(|c| c.get_name().to_owned())
        .collect();
    assert!(
        commands.len() >= 14 && commands.iter().any(|c| c == "check-schema"),
        "clap lists {commands:?}"
    );
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/commands");
    let (without_file, without_command) = unmatched(&commands, &files_in(&dir));
    assert!(
        without_file.is_empty(),
        "commands without their file in src/commands/ (its Args and exec): {without_file:?}"
    );
    assert!(
        without_command.is_empty(),
        "files in src/commands/ that are no command (shared code goes in shared/): \
         {without_command:?}"
    );
}

#[test]
fn a_command_without_a_file_and_a_file_without_a_command_are_named() {
    let commands = [
        String::from("map"),
        String::from("check-schema"),
        String::from("made-up"),
    ];
    let files = [
        String::from("check_schema.rs"),
        String::from("gone.rs"),
        String::from("map.rs"),
        String::from("mod.rs"),
    ];
    assert_eq!(
        unmatched(&commands, &files),
        (vec![String::from("made-up")], vec![String::from("gone.rs")])
    );
    assert_eq!(
        unmatched(&commands[..2], &files[..1]),
        (vec![String::from("map")], Vec::new())
    );
}
