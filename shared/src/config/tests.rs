// figment's test jail has a large error type; it is fine in tests.
#![allow(clippy::result_large_err)]

use figment::Jail;

use super::*;

#[test]
fn the_environment_overrides_the_file_which_overrides_defaults() {
    Jail::expect_with(|jail| {
        jail.create_file(
            "cosmo.toml",
            "[server]\nbind = \"0.0.0.0:9000\"\n[jobs.process_source]\nconcurrency = 7\n",
        )?;
        jail.set_env("COSMO_SERVER__BODY_LIMIT_BYTES", "4096");
        jail.set_env("COSMO_JOBS__EXTRACT_ENTITIES__MAX_ATTEMPTS", "3");
        jail.set_env("COSMO_TEST_POSTGRES_URL", "postgres://elsewhere");
        let c = Config::load(None).map_err(|e| e.to_string())?;
        assert_eq!(c.server.bind, "0.0.0.0:9000");
        assert_eq!(c.server.body_limit_bytes, 4096);
        assert_eq!(c.jobs.process_source.concurrency, 7);
        assert_eq!(
            c.jobs.process_source.max_attempts, 12,
            "other fields keep their per-kind default"
        );
        assert_eq!(c.jobs.extract_entities.max_attempts, 3);
        Ok(())
    });
}

#[test]
fn every_section_can_be_set_from_the_environment() {
    Jail::expect_with(|jail| {
        jail.set_env("COSMO_LIFECYCLE__ACCESS_BOOST", "0.06");
        jail.set_env("COSMO_MAINTENANCE__BATCH_SIZE", "250");
        jail.set_env("COSMO_RETRIEVAL__CANDIDATES_PER_SIGNAL", "17");
        jail.set_env("COSMO_SCHEDULER__CATCH_UP_HOURS", "3");
        jail.set_env("COSMO_TELEMETRY__OTLP_ENDPOINT", "http://collector:4318");
        jail.set_env("COSMO_SESSIONS__KEEP_TURNS", "4");
        let c = Config::load(None).map_err(|e| e.to_string())?;
        assert_eq!(c.lifecycle.access_boost, 0.06);
        assert_eq!(c.maintenance.batch_size, 250);
        assert_eq!(c.retrieval.candidates_per_signal, 17);
        assert_eq!(c.scheduler.catch_up_hours, 3);
        assert_eq!(c.telemetry.otlp_endpoint, "http://collector:4318");
        assert_eq!(c.sessions.keep_turns, 4);
        assert_eq!(sections().len(), 16, "one entry per field of Config");
        Ok(())
    });
}

#[test]
fn typos_inside_a_section_are_refused() {
    Jail::expect_with(|jail| {
        jail.set_env("COSMO_DATABASE__URLL", "sqlite://x.db");
        let err = Config::load(None).unwrap_err().to_string();
        assert!(err.contains("urll"), "{err}");
        Ok(())
    });
}

#[test]
fn a_shutdown_longer_than_the_orphan_timeout_is_refused() {
    Jail::expect_with(|jail| {
        jail.set_env("COSMO_WORKERS__SHUTDOWN_TIMEOUT_SECS", "30");
        let err = Config::load(None).unwrap_err().to_string();
        assert!(err.contains("shutdown_timeout_secs"), "{err}");
        Ok(())
    });
}

#[test]
fn finished_jobs_must_outlive_the_catch_up_window() {
    Jail::expect_with(|jail| {
        jail.set_env("COSMO_QUEUE__KEEP_DONE_DAYS", "1");
        let err = Config::load(None).unwrap_err().to_string();
        assert!(err.contains("keep_done_days"), "{err}");
        jail.set_env("COSMO_SCHEDULER__CATCH_UP_HOURS", "23");
        assert!(Config::load(None).is_ok(), "a day outlives 23 hours");
        jail.set_env("COSMO_QUEUE__KEEP_DONE_DAYS", "0");
        jail.set_env("COSMO_SCHEDULER__CATCH_UP_HOURS", "1000");
        assert!(Config::load(None).is_ok(), "0 keeps them forever");
        Ok(())
    });
}

#[test]
fn logs_are_human_readable_on_a_terminal_and_json_elsewhere_unless_set() {
    assert_eq!(LogConfig::default().format, LogFormat::Auto);
    assert!(LogFormat::Auto.human_readable(true));
    assert!(!LogFormat::Auto.human_readable(false));
    for terminal in [true, false] {
        assert!(!LogFormat::Json.human_readable(terminal), "json wins");
        assert!(LogFormat::Pretty.human_readable(terminal), "pretty wins");
    }
}

#[test]
fn the_log_format_is_read_and_an_unknown_one_is_refused() {
    Jail::expect_with(|jail| {
        jail.create_file("cosmo.toml", "[log]\nformat = \"pretty\"\n")?;
        assert_eq!(
            Config::load(None).map_err(|e| e.to_string())?.log.format,
            LogFormat::Pretty
        );
        jail.set_env("COSMO_LOG__FORMAT", "json");
        assert_eq!(
            Config::load(None).map_err(|e| e.to_string())?.log.format,
            LogFormat::Json
        );
        jail.set_env("COSMO_LOG__FORMAT", "text");
        let err = Config::load(None).unwrap_err().to_string();
        assert!(
            err.contains("unknown variant: found `text`")
                && err.contains("`auto`, `json`, `pretty`")
                && err.to_lowercase().contains("log.format"),
            "{err}"
        );
        Ok(())
    });
}

#[test]
fn secrets_never_reach_debug_output() {
    let mut c = Config::default();
    c.database.url = "postgres://cosmo:pg-secret@db/cosmo".into();
    c.graph.neo4j.password = "neo-secret".into();
    c.models.openai.api_key = "model-secret".into();
    c.auth.bootstrap_key = Some("boot-secret".into());
    let shown = format!("{c:?}");
    for secret in ["pg-secret", "neo-secret", "model-secret", "boot-secret"] {
        assert!(!shown.contains(secret), "{secret} leaked");
    }
}
