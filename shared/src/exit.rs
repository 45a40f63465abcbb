//! How the binaries' `main`s end: an error is printed as one message with its causes,
//! never with a backtrace, and the process exits with status 1.

use std::process::ExitCode;

/// The end of `main`. On an error, prints `error: <message>: <cause>: …` on standard
/// error and returns failure (exit status 1). Returning the error from `main` instead
/// would print its `Debug` form: the causes on separate lines and, with
/// `RUST_BACKTRACE=1`, a backtrace of where it was created, which says nothing to
/// someone whose configuration has a typo.
pub fn report(result: anyhow::Result<()>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{}", message(&e));
            ExitCode::FAILURE
        }
    }
}

fn message(e: &anyhow::Error) -> String {
    format!("error: {e:#}")
}

#[cfg(test)]
mod tests {
    use anyhow::Context;

    use super::*;

    #[test]
    fn the_message_carries_every_cause_on_one_line() {
        let e = Err::<(), _>(anyhow::anyhow!("expected a number"))
            .context("invalid configuration")
            .unwrap_err();
        assert_eq!(
            message(&e),
            "error: invalid configuration: expected a number"
        );
        assert_eq!(report(Err(e)), ExitCode::FAILURE);
        assert_eq!(report(Ok(())), ExitCode::SUCCESS);
    }
}
