use super::*;
use crate::scene::Scene;
use demos::memory::litmus::catalogue::find;
use demos::memory::reordering::ReorderingConfig;
use demos::Model;
use ReorderingAction::*;

fn at(name: &str, model: MemModel) -> Reordering {
    Reordering::new(&ReorderingConfig {
        text: find(name).unwrap().text.to_string(),
        model,
    })
}

fn scene(r: &Reordering) -> Scene {
    crate::build(r, &()).0
}

fn cell<'a>(t: &'a Table, key: &str) -> &'a str {
    t.cell(key).map_or("", |c| c.text.as_str())
}

#[test]
fn mp_under_tso_is_forbidden_by_the_textbook_cycle_and_allowed_on_arm() {
    let r = at("MP", MemModel::Tso);
    let s = scene(&r);
    let v = s.table_named("verdicts").unwrap();
    let row = |key: &str| v.rows.iter().find(|r| r.key == key).unwrap();
    assert_eq!(row("verdict-tso").state.as_deref(), Some("forbidden"));
    assert_eq!(row("verdict-tso").cells[3].text, "po ; rfe ; po ; fre");
    assert_eq!(row("verdict-armv8").state.as_deref(), Some("allowed"));
    assert_eq!(row("verdict-sc").cells[2].text, "3 of 4");
    // With nothing selected, the graph shows the outcome the condition asks about.
    let graph = s.figures().find(|f| f.key == "graph").unwrap();
    assert_eq!(graph.label, "Execution of r1=1, r2=0 under TSO: forbidden");
    let mut cycle: Vec<&str> = graph
        .walk()
        .into_iter()
        .filter_map(|e| e.state.as_deref())
        .filter(|st| st.ends_with(" cycle"))
        .collect();
    cycle.sort_unstable();
    assert_eq!(cycle, ["fre cycle", "po cycle", "po cycle", "rfe cycle"]);
    let why = s.list_named("explain").unwrap();
    assert_eq!(why.items.len(), 5);
    assert_eq!(
        why.items[4].text,
        "d: R x=0 → a: W x=1: fre (read a value that is later overwritten)"
    );
    assert_eq!(
        cell(s.table_named("code").unwrap(), "code-1-0"),
        "▶ MOV r1, [y]"
    );
}

#[test]
fn the_graph_draws_every_relation_of_an_allowed_outcome() {
    let mut r = at("SB", MemModel::Tso);
    r.apply(&SelectOutcome(0)).unwrap();
    let s = scene(&r);
    let graph = s.figures().find(|f| f.key == "graph").unwrap();
    let labels: Vec<&str> = graph
        .walk()
        .into_iter()
        .filter(|e| e.key.starts_with("edge-"))
        .filter_map(|e| e.state.as_deref())
        .collect();
    // r1=0, r2=0: two po edges, two reads from the initial writes, two fr.
    assert_eq!(labels, ["po", "po", "rf", "rf", "fr", "fr"]);
    let why = s.list_named("explain").unwrap();
    assert_eq!(why.items[0].tag.as_deref(), Some("Allowed:"));
    let outcomes = s.table_named("outcomes").unwrap();
    assert!(outcomes.rows[0].cells[0].text.starts_with("▶ r1=0, r2=0"));
}

#[test]
fn scheduling_sb_under_tso_buffers_both_stores_and_reaches_zero_zero() {
    let mut r = at("SB", MemModel::Tso);
    for a in [Run(0), Run(0), Run(1), Run(1)] {
        r.apply(&a).unwrap();
    }
    let s = scene(&r);
    assert_eq!(
        s.find("buffer-0").unwrap().state.as_deref(),
        Some("1 pending")
    );
    assert_eq!(
        s.find("thread-1").unwrap().state.as_deref(),
        Some("finished")
    );
    assert_eq!(s.find("mem-x").unwrap().state.as_deref(), Some("0"));
    let code = s.table_named("code").unwrap();
    assert_eq!(cell(code, "code-0-0"), "✓ MOV [x], 1");
    r.apply(&Drain(0)).unwrap();
    r.apply(&Drain(1)).unwrap();
    let s = scene(&r);
    let outcomes = s.table_named("outcomes").unwrap();
    let zero = outcomes
        .rows
        .iter()
        .find(|row| row.cells[1].text == "yes")
        .unwrap();
    assert_eq!(zero.cells[6].text, "reached");
    assert_eq!(zero.state.as_deref(), Some("allowed"));
}

#[test]
fn arm_shows_aarch64_code_and_no_machine() {
    let r = at("MP+rel+acq", MemModel::Armv8);
    let (s, controls, ui) = crate::build(&r, &());
    assert!(s.find("machine").is_none() && s.figures().all(|f| f.key != "machine"));
    let code = s.table_named("code").unwrap();
    assert_eq!(cell(code, "code-0-1"), "STLR #1, [y]");
    assert_eq!(cell(code, "code-1-0"), "LDAR r1, [y]");
    assert!(Control::find(&controls, "run-0").is_none());
    // Break it: strip the orders, and MP+rel+acq becomes the catalogue's MP.
    let Some(Control::Button(strip)) = Control::find(&controls, "strip") else {
        panic!("strip button");
    };
    let Command::Do(LoadText(text)) = ui.resolve(strip.send, &crate::Input::Press).unwrap() else {
        panic!("strip loads a text");
    };
    assert_eq!(text, find("MP").unwrap().text);
}

#[test]
fn the_dropdown_and_the_editor_load_tests() {
    let mut r = at("MP", MemModel::Rc11);
    let (_, controls, ui) = crate::build(&r, &());
    let Some(Control::Form(form)) = Control::find(&controls, "load-test") else {
        panic!("editor");
    };
    let typed = "name mine\nthread W x 1; R y r1\nthread W y 1; R x r2\nexists r1=0 /\\ r2=0\n";
    let Command::Do(action) = ui
        .resolve(form.send, &crate::Input::Fields(vec![typed.into()]))
        .unwrap()
    else {
        panic!("the editor sends an action");
    };
    r.apply(&action).unwrap();
    let (s, controls, _) = crate::build(&r, &());
    let Some(Control::Choice(test)) = Control::find(&controls, "test") else {
        panic!("test choice");
    };
    assert_eq!(test.options[test.selected].label, "typed: mine");
    assert_eq!(
        cell(s.table_named("code").unwrap(), "code-0-0"),
        "store(x, 1, relaxed)"
    );
    let bad = r
        .clone()
        .apply(&LoadText("thread W x 1\nthread Q\nexists x=1".into()));
    assert_eq!(
        bad.unwrap_err().reason,
        "Line 2, column 8: `Q` is not an operation: use W, R or F."
    );
}

#[test]
fn a_race_is_named_under_rc11() {
    let r = at("MP+na", MemModel::Rc11);
    let s = scene(&r);
    let v = s.table_named("verdicts").unwrap();
    let rc11 = v.rows.iter().find(|r| r.key == "verdict-rc11").unwrap();
    assert_eq!(rc11.state.as_deref(), Some("undefined"));
    assert_eq!(rc11.cells[3].text, "data race on x: a and d");
}

#[test]
fn a_typed_error_is_quoted_at_its_line_with_a_caret() {
    use crate::live::LiveDemo;
    let (live, _) = crate::live::open::<Reordering>(None);
    let mut live: Box<dyn LiveDemo> = live;
    let frame = live.frame();
    let Some(Control::Form(form)) = Control::find(&frame.controls, "load-test") else {
        panic!("editor");
    };
    let typed = crate::Input::Fields(vec!["thread W x 1\nthread Q\nexists x=1".into()]);
    let shown =
        "Line 2, column 8: `Q` is not an operation: use W, R or F.\n2 │ thread Q\n  │        ^";
    assert_eq!(live.check(form.send, &typed).unwrap_err(), shown);
    assert_eq!(live.send(form.send, &typed).unwrap_err(), shown);
}

/// The dash classes `static/scene.css` defines for lines.
const DASHES: [&str; 5] = ["solid", "dashed", "dotted", "dashdot", "ghost"];

fn dash_of(s: &crate::scene::Shape) -> Vec<&'static str> {
    DASHES.into_iter().filter(|d| s.has_class(d)).collect()
}

#[test]
fn each_relation_has_its_own_dash_and_its_legend_key_is_drawn_like_its_edges() {
    // R under TSO: the outcome the condition asks about is allowed and its
    // graph has all four relations (co between the two stores of y, fr from
    // the load of x to the store of x).
    let s = scene(&at("R", MemModel::Tso));
    let graph = s.figures().find(|f| f.key == "graph").unwrap();
    let edges: Vec<_> = graph
        .walk()
        .into_iter()
        .filter(|e| e.key.starts_with("edge-"))
        .collect();
    let mut dashes = Vec::new();
    for rel in ["po", "rf", "co", "fr"] {
        let mine: Vec<_> = edges
            .iter()
            .filter(|e| e.state.as_deref() == Some(rel))
            .collect();
        assert!(!mine.is_empty(), "R draws no {rel} edge");
        let (key, meaning) = graph
            .legend
            .iter()
            .find(|(_, m)| m.starts_with(&format!("{rel}: ")))
            .unwrap_or_else(|| panic!("no legend key for {rel}"));
        for e in &mine {
            assert_eq!(dash_of(e).len(), 1, "{rel} edge {}: {}", e.key, e.class);
            for class in key.split(' ') {
                assert!(
                    e.has_class(class),
                    "{rel}: the key `{key}` ({meaning}) has {class}, the edge `{}` does not",
                    e.class
                );
            }
        }
        let dash = dash_of(mine[0])[0];
        assert!(
            mine.iter().all(|e| dash_of(e) == [dash]),
            "{rel} edges differ"
        );
        assert!(
            meaning.contains(&dash.replace("dashdot", "dash-dot")),
            "{meaning}"
        );
        dashes.push(dash);
    }
    let mut distinct = dashes.clone();
    distinct.sort_unstable();
    distinct.dedup();
    assert_eq!(distinct.len(), 4, "po, rf, co, fr dashes: {dashes:?}");

    // Under SC the outcome is forbidden: the cycle's edges carry the cycle
    // key's classes (fault colour, thick) and keep their relation's dash.
    let s = scene(&at("R", MemModel::Sc));
    let graph = s.figures().find(|f| f.key == "graph").unwrap();
    let (key, _) = graph
        .legend
        .iter()
        .find(|(_, m)| m.starts_with("the cycle"))
        .unwrap();
    let cycle: Vec<_> = graph
        .walk()
        .into_iter()
        .filter(|e| e.state.as_deref().is_some_and(|st| st.ends_with(" cycle")))
        .collect();
    assert!(!cycle.is_empty());
    for e in cycle {
        assert!(
            key.split(' ').all(|c| e.has_class(c)),
            "{key} vs {}",
            e.class
        );
        let rel = &e.state.as_deref().unwrap()[..2];
        let want = ["po", "rf", "co", "fr"].iter().position(|r| *r == rel);
        if let Some(i) = want {
            assert_eq!(dash_of(e), [dashes[i]], "{}", e.class);
        }
    }
}

/// Issue 30: the fourth model is RC11 in the table's header and on the
/// switch, and an Arm barrier is named as the code shows it (DMB ISH).
#[test]
fn the_model_is_labelled_rc11_and_the_barrier_dmb_ish() {
    let r = at("MP+fences", MemModel::Armv8);
    let (s, controls, _) = crate::build(&r, &());
    let outcomes = s.table_named("outcomes").unwrap();
    assert_eq!(outcomes.columns[2..6], ["SC", "TSO", "ARMv8", "RC11"]);
    let Some(Control::Choice(models)) = Control::find(&controls, "model") else {
        panic!("model choice");
    };
    assert_eq!(models.options[3].label, "RC11");
    assert_eq!(cell(s.table_named("code").unwrap(), "code-0-1"), "DMB ISH");
    let why = s.list_named("explain").unwrap();
    assert!(
        why.items
            .iter()
            .any(|i| i.text.contains("(DMB ISH between them)")),
        "{:?}",
        why.items.iter().map(|i| &i.text).collect::<Vec<_>>()
    );
}

/// Issue 30: "Weaken the model to ARMv8" is offered only where ARMv8 allows
/// more on this test; under RC11 (incomparable with ARMv8) it is not.
#[test]
fn weaken_is_offered_only_where_armv8_allows_more_here() {
    let has_weaken = |r: &Reordering| {
        let (_, controls, _) = crate::build(r, &());
        Control::find(&controls, "weaken").is_some()
    };
    assert!(has_weaken(&at("MP", MemModel::Tso)));
    assert!(!has_weaken(&at("MP", MemModel::Armv8)));
    assert!(!has_weaken(&at("IRIW+acqs", MemModel::Rc11)));
    // LB: ARMv8 allows r1=1, r2=1, which RC11 forbids, so here it is weaker.
    assert!(has_weaken(&at("LB", MemModel::Rc11)));
}

fn weaken_note(controls: &[Control]) -> Option<&str> {
    let Some(Control::Group(g)) = Control::find(controls, "Break it") else {
        return None;
    };
    g.controls.iter().find_map(|c| match c {
        Control::Note(text) if text.starts_with("Weakening also stops Step") => Some(text.as_str()),
        _ => None,
    })
}

/// Issue 37: where Break it would stop Step (weakening from SC or TSO to
/// ARMv8, which has no machine), the Break it zone says so; nowhere else.
#[test]
fn the_break_it_note_appears_exactly_when_weakening_stops_step() {
    let mut seen = (0, 0);
    for entry in CATALOGUE {
        for model in MemModel::ALL {
            let r = at(entry.name, model);
            let (_, controls, _) = crate::build(&r, &());
            let weaken = Control::find(&controls, "weaken").is_some();
            let stops = weaken && Reordering::schedules(model);
            assert_eq!(
                weaken_note(&controls).is_some(),
                stops,
                "{} under {}",
                entry.name,
                model.label()
            );
            if weaken {
                if stops {
                    seen.0 += 1;
                } else {
                    seen.1 += 1;
                }
            }
        }
    }
    assert!(seen.0 > 0 && seen.1 > 0, "both cases occur: {seen:?}");
    let (_, controls, _) = crate::build(&at("MP", MemModel::Tso), &());
    assert_eq!(
        weaken_note(&controls),
        Some("Weakening also stops Step: ARMv8 is judged from its axioms alone, with no machine here to run, so Step refuses until the model is SC or TSO again.")
    );
}

/// After weakening, the controls say what Step does now, in the words of
/// the refusal Step narrates.
#[test]
fn after_weakening_the_page_says_what_step_does() {
    use crate::live::LiveDemo;
    let (live, _) = crate::live::open::<Reordering>(None);
    let mut live: Box<dyn LiveDemo> = live;
    let frame = live.frame();
    let Some(Control::Button(weaken)) = Control::find(&frame.controls, "weaken") else {
        panic!("weaken is offered on MP under TSO");
    };
    live.send(weaken.send, &crate::Input::Press).unwrap();
    let frame = live.frame();
    let step = "Step has nothing to run under ARMv8, which is judged from its axioms alone: switch the model to SC or TSO to schedule a run.";
    assert!(frame
        .controls
        .iter()
        .any(|c| matches!(c, Control::Note(text) if text == step)));
    assert!(weaken_note(&frame.controls).is_none());
    assert!(!live.step());
    assert_eq!(live.narration().last().unwrap().text, step);
}
