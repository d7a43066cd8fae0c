//! `author`: an LLM draws a solution's chart, flowbench reviews each reply
//! ([`super::review`]) and sends its diagnostics back for up to `rounds`
//! repair rounds. Talks to the model only through [`flowbench_client`] (the
//! client `generate` uses: retries, cache); every round is handed to a log
//! callback as one JSON object before the next begins, so a killed run keeps
//! what it asked and got.

use serde_json::{Value as Json, json};

use flowbench_client::{Cache, ChatClient, ClientError};

use super::reader::Program;
use super::review::{Review, review_with};

/// The default first prompt (`{description}`, `{solution}`, `{entry_point}`).
pub const AUTHOR_TEMPLATE: &str = include_str!("templates/author.txt");
/// The default repair prompt (`{diagnostics}`).
pub const REPAIR_TEMPLATE: &str = include_str!("templates/repair.txt");

/// The problem as the model is shown it.
#[derive(Debug, Clone)]
pub struct Problem<'a> {
    pub description: &'a str,
    pub solution: &'a str,
    /// The solution's file name, for the diagnostics' notes.
    pub solution_name: &'a str,
    pub program: &'a Program,
    /// Where a reply's chart runs beside the code (the gate of
    /// [`super::review::review_with`]); `None`: structure only.
    pub behave: Option<&'a super::against::Behave<'a>>,
}

/// Model and loop settings.
#[derive(Debug, Clone)]
pub struct Settings {
    pub model: String,
    pub temperature: f64,
    pub top_p: f64,
    pub max_tokens: u32,
    /// Repair rounds after the first answer.
    pub rounds: usize,
    pub author_template: String,
    pub repair_template: String,
}

/// How a session ended.
#[derive(Debug, Clone)]
pub enum Outcome {
    /// A chart that parses, lints clean and passes `--against`, after
    /// `repairs` repair rounds.
    Valid { chart: String, repairs: usize, similarity: f64 },
    /// Still invalid after every round: the last review.
    Invalid { last: Review, requests: usize },
}

/// Why a session stopped without an outcome: the model gave no answer at
/// all, or the caller's log (`L`, its own error) could not be written.
#[derive(Debug, thiserror::Error)]
pub enum SessionError<L> {
    #[error("{url} did not answer: {error}")]
    NoAnswer { url: String, error: ClientError },
    /// The log callback's error, as it returned it.
    #[error("{0}")]
    Log(L),
}

/// The first user message.
pub fn first_prompt(template: &str, problem: &Problem) -> String {
    template
        .replace("{description}", problem.description.trim_end())
        .replace("{solution}", problem.solution.trim_end())
        .replace("{entry_point}", &problem.program.entry.qual)
}

/// Runs the loop. `progress` hears what is happening (for a terminal line);
/// `log` gets one object per round (request, reply, fixes, diagnostics).
/// Errors are the client's (no answer at all) or the log's.
pub fn author<L>(
    client: &ChatClient,
    cache: Option<&Cache>,
    problem: &Problem,
    settings: &Settings,
    progress: &dyn Fn(&str),
    log: &mut dyn FnMut(&Json) -> Result<(), L>,
) -> Result<Outcome, SessionError<L>> {
    let mut messages = vec![json!({"role": "user", "content": first_prompt(&settings.author_template, problem)})];
    let mut rng = fastrand::Rng::with_seed(0x00f1_0b3e);
    let total = settings.rounds + 1;
    let mut round = 0;
    loop {
        let body = json!({
            "model": settings.model,
            "messages": messages,
            "temperature": settings.temperature,
            "top_p": settings.top_p,
            "max_tokens": settings.max_tokens,
        });
        progress(&format!("round {}/{total}: asking {}", round + 1, settings.model));
        let answer = ask(client, cache, &body, &mut rng)?;
        let reply = answer["choices"][0]["message"]["content"].as_str().unwrap_or("").to_owned();
        progress(&format!("round {}/{total}: checking the answer", round + 1));
        let reviewed = review_with(&reply, problem.program, problem.solution_name, problem.solution, problem.behave);
        let fixes: Vec<Json> = reviewed
            .fixes
            .iter()
            .map(|c| json!({"line": c.line, "col": c.col, "pitfall": c.pitfall, "before": c.before, "after": c.after}))
            .collect();
        log(&json!({
            "round": round,
            "request": body,
            "reply": reply,
            "usage": answer.get("usage").cloned().unwrap_or(Json::Null),
            "fixes": fixes,
            "diagnostics": reviewed.diagnostics,
            "similarity": reviewed.similarity,
            "valid": reviewed.is_valid(),
        }))
        .map_err(SessionError::Log)?;
        if reviewed.is_valid() {
            let similarity = reviewed.similarity.unwrap_or(1.0);
            let chart = reviewed.chart.unwrap_or_default();
            return Ok(Outcome::Valid { chart, repairs: round, similarity });
        }
        if round + 1 == total {
            return Ok(Outcome::Invalid { last: reviewed, requests: total });
        }
        messages.push(json!({"role": "assistant", "content": reply}));
        messages
            .push(json!({"role": "user", "content": super::review::feedback(&settings.repair_template, &reviewed)}));
        round += 1;
    }
}

/// One answer, from the cache when the same conversation was asked before.
fn ask<L>(
    client: &ChatClient,
    cache: Option<&Cache>,
    body: &Json,
    rng: &mut fastrand::Rng,
) -> Result<Json, SessionError<L>> {
    let key = Cache::key(client.url(), "author", body);
    if let Some(hit) = cache.and_then(|c| c.get(&key)) {
        return Ok(hit);
    }
    let answer =
        client.complete(body, rng).map_err(|error| SessionError::NoAnswer { url: client.url().to_string(), error })?;
    if let Some(cache) = cache {
        // A cache that cannot be written only costs a future re-request.
        let _ = cache.put(&key, &answer);
    }
    Ok(answer)
}
