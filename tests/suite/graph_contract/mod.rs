//! The graph store contract: every backend must pass every case. A backend joins the
//! suite with one `graph_contract!` line naming a factory that returns `None` (and says
//! why) when the backend is not available here.

pub(crate) mod cases;
mod neo4j_over_fetch;
mod read_support;
mod sqlite_only;
mod sqlite_texts;
mod sqlite_vectors;
mod support;

/// Instantiates every case as a test for one backend.
macro_rules! graph_contract {
    ($backend:ident, $factory:path) => {
        mod $backend {
            graph_contract!(@cases $factory;
                sources_round_trip,
                reposting_returns_the_existing_source,
                processing_fields_and_errors,
                stuck_sources_are_found,
                stale_sources_are_listed_until_reindexed,
                reindexing_replaces_the_index_and_nothing_else,
                owner_person_lifecycle,
                extraction_records_move_through_their_states,
                a_batch_extraction_lists_the_team_sources_not_yet_asked_for,
                extraction_write_merges_links_and_notes,
                extraction_write_is_idempotent,
                counters_count_each_source_once_on_event_time,
                users_get_separate_graphs,
                failed_extraction_write_changes_nothing,
                storylines_take_new_sources_once,
                macros_follow_their_storylines,
                values_are_data_never_code,
                reads_page_through_everything,
                lifecycle_pages_walk_every_memory_once,
                decay_pages_decide_as_the_pure_function_does,
                decay_pages_equal_the_pure_function_for_any_lifecycle,
                accesses_during_decay_are_not_lost,
                apply_lifecycle_writes_every_field,
                candidates_are_confirmed_by_a_second_source,
                an_archived_node_mentioned_again_is_active_again,
                completed_extractions_are_final,
                storyline_promotion_candidates_follow_the_rules,
                dirty_storylines_are_refreshed,
                macros_are_promoted_and_refreshed,
                dirty_nodes_and_relationships_are_consolidated,
                expired_notes_are_deleted_in_batches,
                faded_sources_are_old_unpinned_and_unarchived,
                source_clusters_group_a_users_old_sources,
                consolidating_sources_archives_them_once,
                back_filled_sources_wait_until_received_long_enough,
                shared_anchors_make_no_cluster,
                a_source_in_several_clusters_is_archived_and_counted_once,
                // the read side
                vector_search_ranks_sources_by_cosine_in_scope,
                text_search_matches_source_fields_in_scope,
                passages_are_stored_replaced_and_listed_in_order,
                vector_search_scores_a_source_by_its_best_passage,
                erasure_removes_passages,
                erasure_removes_a_reindexed_source,
                notes_are_found_by_their_words_on_nodes_and_relationships,
                note_search_is_scoped_to_the_user_live_owners_and_live_notes,
                insight_notes_carry_the_sources_they_were_derived_from,
                notes_insights_and_facts_keep_when_they_were_said,
                erasure_takes_notes_out_of_note_search,
                note_search_ranks_best_first_within_the_limit,
                team_sources_are_found_by_participants_only,
                vector_search_ranks_every_kind_by_cosine,
                text_search_covers_every_kind,
                text_search_ranks_as_the_shared_ranking,
                neighbours_rank_what_links_to_the_seeds,
                neighbours_reach_through_the_owner,
                memory_reads_any_kind_by_key,
                update_lifecycles_writes_what_the_closure_decides,
                concurrent_lifecycle_updates_lose_nothing,
                read_views_list_in_the_documented_order,
                free_text_facts_are_stored_once,
                structured_facts_keep_one_live_value,
                corrections_supersede_and_end_the_old_fact,
                a_correction_cannot_take_a_slot_another_fact_holds,
                confirmed_facts_are_certain_and_kept_forever,
                weak_facts_are_live_unconfirmed_and_weakest_first,
                superseded_facts_are_never_searched,
                erasing_a_source_removes_what_only_it_supports,
                erasing_a_fact_removes_its_history,
                erasing_a_source_removes_every_insight_drawn_from_it,
                erasing_the_last_sources_drops_empty_storylines_and_macros,
                erased_text_is_found_nowhere,
                erasing_a_user_removes_everything_of_theirs,
                // memory stats
                memory_stats_count_what_the_store_holds,
                // links between Sources
                temporal_links_chain_a_thread_once_in_event_order,
                causal_links_are_written_once_from_waiting_sources,
                erasing_a_source_takes_its_links_and_closes_its_thread,
            );
        }
    };
    (@cases $factory:path; $($case:ident),+ $(,)?) => {
        $(
            #[tokio::test]
            async fn $case() {
                if let Some(store) = $factory().await {
                    super::cases::$case(&store).await;
                }
            }
        )+
    };
}

graph_contract!(sqlite, crate::graph_contract::support::sqlite);
graph_contract!(neo4j, crate::graph_contract::support::neo4j);

/// The Source search cases once more on Neo4j, every user's Sources searched through a
/// top-k of the shared indexes (the path of users with many Sources).
mod neo4j_over_fetched {
    graph_contract!(@cases crate::graph_contract::support::neo4j_over_fetched;
        vector_search_ranks_sources_by_cosine_in_scope,
        text_search_matches_source_fields_in_scope,
        vector_search_scores_a_source_by_its_best_passage,
        team_sources_are_found_by_participants_only,
        erasure_removes_passages,
        erasure_removes_a_reindexed_source,
        erased_text_is_found_nowhere,
        erasing_a_user_removes_everything_of_theirs,
    );
}
