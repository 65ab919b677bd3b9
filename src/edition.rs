//! The rulebooks the library knows. An edition is data: its name, its source text and its
//! rule catalog (see `rules::catalog`); the engines read what they need from it.

use crate::error::{Error, Result};
use std::fmt;
use std::str::FromStr;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default, serde::Serialize, serde::Deserialize)]
pub enum Edition {
    /// Grimdark Future v3.5 (beginner's guide 2024): the current edition and the default.
    #[default]
    V3_5,
    /// Grimdark Future v3.4.1 core rules.
    V3_4_1,
    /// Grimdark Future v2.x one-page rules.
    V2,
    /// Grimdark Future: Firefight v3.2 (skirmish).
    Firefight3_2,
}

impl Edition {
    pub const ALL: [Edition; 4] = [Edition::V3_5, Edition::V3_4_1, Edition::V2, Edition::Firefight3_2];

    /// The key users pass as `edition=`.
    pub fn key(self) -> &'static str {
        match self {
            Edition::V3_5 => "3.5",
            Edition::V3_4_1 => "3.4.1",
            Edition::V2 => "2",
            Edition::Firefight3_2 => "firefight-3.2",
        }
    }

    pub fn title(self) -> &'static str {
        match self {
            Edition::V3_5 => "Grimdark Future v3.5",
            Edition::V3_4_1 => "Grimdark Future v3.4.1",
            Edition::V2 => "Grimdark Future v2.x",
            Edition::Firefight3_2 => "Grimdark Future: Firefight v3.2",
        }
    }

    /// The rulebook text in `../shared/rules/` each edition follows.
    pub fn source(self) -> &'static str {
        match self {
            Edition::V3_5 => "gf-3.5-beginners-guide.txt",
            Edition::V3_4_1 => "gf-3.4.1-core.txt",
            Edition::V2 => "gf-2.x-one-page.txt",
            Edition::Firefight3_2 => "gf-firefight-3.2.txt",
        }
    }
}

impl fmt::Display for Edition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.key())
    }
}

impl FromStr for Edition {
    type Err = Error;

    /// Accepts the keys and the version strings Army Forge uses (`3.5.1`, `3.4.4`, `2.50`).
    fn from_str(s: &str) -> Result<Self> {
        let t = s.trim().to_ascii_lowercase();
        let t = t.strip_prefix('v').unwrap_or(&t);
        let edition = match t {
            "3.5" | "3.5.0" | "3.5.1" | "3.5.2" | "3.5.3" | "gf-3.5" => Some(Edition::V3_5),
            "3.4.1" | "3.4" | "gf-3.4.1" => Some(Edition::V3_4_1),
            "2" | "2.x" | "gf-2" | "gf-2.x" => Some(Edition::V2),
            "firefight-3.2" | "firefight" | "gff-3.2" | "gff" => Some(Edition::Firefight3_2),
            _ if t.starts_with("2.") && t[2..].chars().all(|c| c.is_ascii_digit()) => Some(Edition::V2),
            _ => None,
        };
        edition.ok_or_else(|| {
            let known: Vec<&str> = Edition::ALL.iter().map(|e| e.key()).collect();
            Error::invalid("edition", format!("{s:?}"), format!("unknown edition; known: {}", known.join(", ")))
        })
    }
}

/// What an edition's Hero rule allows when a hero joins a unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HeroJoining {
    /// v3.5, v3.4.1: "Heroes with up to Tough(6) may deploy as part of one multi-model unit
    /// without another Hero."
    UpToTough(u32),
    /// v2.x: "May be deployed as part of friendly units" (no Tough limit).
    Any,
    /// Firefight v3.2: heroes lend their Quality to units within 12" and never join.
    Never,
}

impl Edition {
    pub fn hero_joining(self) -> HeroJoining {
        match self {
            Edition::V3_5 | Edition::V3_4_1 => HeroJoining::UpToTough(6),
            Edition::V2 => HeroJoining::Any,
            Edition::Firefight3_2 => HeroJoining::Never,
        }
    }
}
