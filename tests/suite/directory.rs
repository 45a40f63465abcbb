//! The directory on both of its databases (the embedded SQLite file; PostgreSQL): a user
//! is (tenant, user id), users from before tenants owned their ids keep them, and
//! concurrent first uses of one id by two tenants give two users.

use chrono::{TimeZone, Utc};
use cosmo_shared::db::Db;
use cosmo_shared::directory::Directory;
use cosmo_tests::pg::TempPostgres;

/// The last migration before users belonged to a tenant.
const BEFORE_TENANT_USERS: i64 = 3;

async fn sqlite(dir: &std::path::Path) -> Db {
    let url = format!("sqlite://{}", dir.join("directory.db").display());
    Db::connect(&url, 4, std::time::Duration::from_secs(10))
        .await
        .unwrap()
}

async fn postgres(pg: &TempPostgres) -> Db {
    Db::connect(&pg.url, 4, std::time::Duration::from_secs(10))
        .await
        .unwrap()
}

/// Runs `check` on a fresh SQLite directory and a fresh PostgreSQL one.
async fn on_both<F: AsyncFn(Db)>(check: F) {
    let dir = tempfile::tempdir().unwrap();
    check(sqlite(dir.path()).await).await;
    let pg = TempPostgres::create().await;
    check(postgres(&pg).await).await;
}

async fn execute(db: &Db, sql: &'static str) {
    match db {
        Db::Sqlite(pool) => sqlx::raw_sql(sql).execute(pool).await.map(drop),
        Db::Postgres(pool) => sqlx::raw_sql(sql).execute(pool).await.map(drop),
    }
    .unwrap();
}

#[tokio::test]
async fn users_from_before_tenants_owned_their_ids_keep_them() {
    on_both(async |db| {
        let directory = Directory::new(db.clone());
        directory.migrate_to(BEFORE_TENANT_USERS).await.unwrap();
        execute(
            &db,
            "INSERT INTO cosmo_tenants (tenant_id, name, created_at)
                 VALUES ('acme', 'acme', '2026-01-01T00:00:00Z');
             INSERT INTO cosmo_users (user_id, tenant_id, full_name, created_at, updated_at)
                 VALUES ('alex', 'acme', 'Alex Johnson', '2026-01-01T00:00:00Z', '2026-01-02T00:00:00Z');",
        )
        .await;
        directory.migrate().await.unwrap();

        let at = Utc.with_ymd_and_hms(2026, 11, 1, 0, 0, 0).unwrap();
        let alex = directory.tenant_user("acme", "alex").await.unwrap().unwrap();
        assert_eq!(alex.graph_user_id, "alex", "the graph keeps knowing alex as alex");
        assert_eq!(alex.full_name.as_deref(), Some("Alex Johnson"));
        assert_eq!(directory.user("alex").await.unwrap(), Some(alex));
        assert_eq!(directory.claim_user("acme", "alex", at).await.unwrap(), "alex");
        // Another tenant's alex is another user.
        directory.ensure_tenant("globex", at).await.unwrap();
        let theirs = directory.claim_user("globex", "alex", at).await.unwrap();
        assert_eq!(theirs, "globex/alex");
        assert_eq!(directory.claim_user("globex", "alex", at).await.unwrap(), theirs);
        assert!(directory.tenant_user("globex", "nobody").await.unwrap().is_none());
        // An id no one has used is the graph user id itself, whichever tenant is first.
        assert_eq!(directory.claim_user("globex", "sam", at).await.unwrap(), "sam");
        assert_eq!(
            directory.claim_user("acme", "sam", at).await.unwrap(),
            "acme/sam"
        );
        // Erasing globex's alex leaves acme's.
        assert!(directory.delete_user(&theirs).await.unwrap());
        assert!(directory.tenant_user("globex", "alex").await.unwrap().is_none());
        assert_eq!(
            directory.tenant_user("acme", "alex").await.unwrap().unwrap().graph_user_id,
            "alex"
        );
    })
    .await;
}

#[tokio::test]
async fn two_tenants_first_using_one_id_at_once_get_two_users() {
    on_both(async |db| {
        let directory = Directory::new(db);
        directory.migrate().await.unwrap();
        let at = Utc.with_ymd_and_hms(2026, 11, 1, 0, 0, 0).unwrap();
        let tenants = ["acme", "globex", "initech"];
        for t in tenants {
            directory.ensure_tenant(t, at).await.unwrap();
        }
        for round in 0..5 {
            let user = format!("user-{round}");
            let claims = (0..12).map(|i| {
                let (directory, user) = (directory.clone(), user.clone());
                let tenant = tenants[i % tenants.len()];
                tokio::spawn(async move {
                    let id = directory.claim_user(tenant, &user, at).await.unwrap();
                    (tenant, id)
                })
            });
            let mut seen = std::collections::BTreeMap::new();
            for claim in claims.collect::<Vec<_>>() {
                let (tenant, id) = claim.await.unwrap();
                let first = seen.entry(tenant).or_insert_with(|| id.clone());
                assert_eq!(*first, id, "{tenant} got one user {user}");
            }
            let ids: std::collections::BTreeSet<_> = seen.values().collect();
            assert_eq!(ids.len(), tenants.len(), "three users: {seen:?}");
            assert!(
                ids.contains(&user),
                "one of them keeps the bare id: {seen:?}"
            );
        }
    })
    .await;
}

/// Keys are verified once every few seconds, not on every request: a key revoked by
/// another process stops working within `recent::FRESH`; in the revoking process at
/// once. An unknown key is never remembered as unknown.
#[tokio::test]
async fn a_revoked_key_stops_working_within_seconds_everywhere() {
    use cosmo_shared::directory::{Use, recent};
    on_both(async |db: Db| {
        let api = Directory::new(db.clone());
        api.migrate().await.unwrap();
        let admin = Directory::new(db.clone()); // another process
        let now = Utc::now();
        let (key, info) = admin
            .create_api_key("acme", "agent", false, now)
            .await
            .unwrap();
        let caller = api.authenticate_recent(&key, Use::Verified).await.unwrap();
        assert_eq!(caller.map(|c| c.tenant_id).as_deref(), Some("acme"));

        assert!(admin.revoke_api_key(&info.key_id, now).await.unwrap());
        let started = std::time::Instant::now();
        cosmo_tests::wait_for(
            "the revocation to reach the API",
            recent::FRESH * 3,
            || async {
                api.authenticate_recent(&key, Use::Verified)
                    .await
                    .unwrap()
                    .is_none()
                    .then_some(())
            },
        )
        .await;
        assert!(started.elapsed() <= recent::FRESH + std::time::Duration::from_secs(1));

        let (other, other_info) = api
            .create_api_key("acme", "agent 2", false, now)
            .await
            .unwrap();
        assert!(
            api.authenticate_recent(&other, Use::Verified)
                .await
                .unwrap()
                .is_some()
        );
        assert!(api.revoke_api_key(&other_info.key_id, now).await.unwrap());
        assert_eq!(
            api.authenticate_recent(&other, Use::Verified)
                .await
                .unwrap(),
            None,
            "revoked in this process: refused at once"
        );
    })
    .await;
}
