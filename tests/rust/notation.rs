//! The core's notation readers, values and checks, without Python.

use oprstats::edition::HeroJoining;
use oprstats::loaders::Army;
use oprstats::{Edition, Error, Unit, Weapon};

const V35: Edition = Edition::V3_5;

#[test]
fn weapon_notation_round_trips() {
    for text in ["Heavy Rifle (24\", A1, AP(1))", "5x CCW (A1)", "Flamer (12\", A1, Blast(3), Reliable)", "Spawner (A2, Spawn(Spores [5]))"] {
        let w = Weapon::parse(text, V35).unwrap();
        assert_eq!(w.to_string(), text);
        assert_eq!(Weapon::parse(&w.to_string(), V35).unwrap(), w);
    }
    let w = Weapon::parse("2x Plasma (24\", A1, AP(4), Deadly(3))", V35).unwrap();
    assert_eq!((w.count, w.range, w.attacks), (2, Some(24), 1));
    assert_eq!(w.rule("Deadly").and_then(|r| r.number()), Some(3));
}

#[test]
fn parse_errors_name_field_value_and_position() {
    let e = Weapon::parse("Rifle (24\", Ax)", V35).unwrap_err();
    match &e {
        Error::Parse { field, value, position, .. } => {
            assert_eq!((field.as_str(), value.as_str(), *position), ("weapon attacks", "\"Ax\"", 12));
        }
        other => panic!("{other:?}"),
    }
    assert!(e.to_string().contains("at position 12"));
    let e = Unit::parse("Grunts [10] Q5+ D7+", V35).unwrap_err();
    assert!(e.to_string().starts_with("defense: must be from 2 to 6"), "{e}");
}

#[test]
fn unit_notation_and_models() {
    let text = "Squad [10] Q4+ D4+ | 100pts | Fearless\n9x Rifle (24\", A1), Plasma Gun (24\", A1, AP(4), Deadly(3)), 10x CCW (A1)";
    let u = Unit::parse(text, V35).unwrap();
    assert_eq!(u.to_string(), text);
    let models = u.models();
    assert_eq!(models.len(), 10);
    let gunners: Vec<_> = models.iter().filter(|m| m.weapons.iter().any(|w| w.name == "Plasma Gun")).collect();
    assert_eq!(gunners.len(), 1);
    assert!(gunners[0].weapons.iter().all(|w| w.name != "Rifle"));
    assert!(models.iter().all(|m| m.weapons.iter().any(|w| w.name == "CCW")));
}

#[test]
fn joining_follows_each_edition() {
    assert_eq!(Edition::V3_5.hero_joining(), HeroJoining::UpToTough(6));
    let squad = Unit::parse("Squad [5] Q4+ D4+\n5x CCW (A1)", V35).unwrap();
    let hero = Unit::parse("Captain [1] Q3+ D3+ | Hero, Tough(6)\nSword (A3)", V35).unwrap();
    let joined = squad.join(&hero, V35).unwrap();
    assert_eq!(joined.size(), 6);
    assert!(joined.models().last().unwrap().hero);
    assert_eq!(Unit::parse(&joined.to_string(), V35).unwrap(), joined);
    let big = Unit::parse("Lord [1] Q3+ D2+ | Hero, Tough(9)\nClaws (A4)", V35).unwrap();
    assert!(squad.join(&big, V35).is_err());
    assert!(squad.join(&big, Edition::V2).is_ok());
    assert!(squad.join(&hero, Edition::Firefight3_2).is_err());
}

#[test]
fn lists_expand_copies_and_join_heroes() {
    let text = "++ Test (v3.5.1) [GF 500pts] ++\n\nCaptain [1] Q3+ D3+ | 50pts | Hero, Tough(3)\nSword (A3)\n| Joined to:\nSquad [5] Q4+ D4+ | 100pts\n5x CCW (A1)\n\n2x Dogs [3] Q5+ D5+ | 40pts | Fast\n3x Bite (A2)";
    let army = Army::parse(text, V35).unwrap();
    assert_eq!(army.units.len(), 3);
    assert_eq!(army.points(), 230);
    assert_eq!(army.points_limit, Some(500));
    assert_eq!(army.units[0].groups.len(), 2);
}

#[test]
fn editions_parse_by_key_and_version() {
    assert_eq!("3.5.1".parse::<Edition>().unwrap(), Edition::V3_5);
    assert_eq!("firefight-3.2".parse::<Edition>().unwrap(), Edition::Firefight3_2);
    assert_eq!("2.50".parse::<Edition>().unwrap(), Edition::V2);
    assert!("40k".parse::<Edition>().is_err());
}
