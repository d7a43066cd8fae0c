fn main() -> std::process::ExitCode {
    flowbench::cli::main()
}
