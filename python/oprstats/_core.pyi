"""Type stubs for the compiled core (src/python)."""

from typing import Any, Iterable, Iterator, Optional, Sequence, Union, final

import numpy as np
import numpy.typing as npt

__all__ = [
    "__version__",
    "Weapon",
    "Unit",
    "Model",
    "ArmyBook",
    "UpgradeOption",
    "Army",
    "Spell",
    "_spell_from_state",
    "_weapon_from_text",
    "_unit_from_text",
    "_weapon_from_state",
    "_unit_from_state",
    "_model_from_state",
    "_upgrade_option_from_state",
    "_army_from_state",
    "_army_book_from_state",
    "_load_army_book_json",
    "_load_army_list_text",
    "_editions",
    "_limits",
    "_known_rules",
    "_known_rule_names",
    "_rule_census",
    "_unmodelled_rules",
    "_set_strict",
    "_get_strict",
    "UnknownRuleWarning",
    "ListWarning",
    "_attack",
    "_AttackStages",
    "_MeleeOutcome",
    "_attack_table",
    "_matchups",
    "_matchup_activations",
    "_matchups_square",
    "_melee",
    "_morale",
    "_cost_terms",
    "_efficiency",
    "_durability",
    "_reference_targets",
    "_reference_attackers",
    "_curve_target",
    "_efficiency_modes",
    "_GamePrep",
    "_game_editions",
    "_edition_key",
    "_prepare_game",
    "_simulate",
    "_metagame",
    "_metagame_replicates",
]

__version__: str

@final
class Weapon:
    """A weapon profile in the rulebook's notation: ``[Nx ]Name (Range", A#, Rules...)``."""

    def __new__(
        cls,
        name: str,
        *,
        range: Optional[int] = None,
        attacks: int,
        count: Optional[int] = None,
        rules: Optional[Iterable[str]] = None,
        edition: str = "3.5",
        strict: Optional[bool] = None,
    ) -> Weapon:
        """A rule name the library does not know gives an ``UnknownRuleWarning`` naming the
        closest known ones; ``strict=True`` (default: ``oprstats.get_strict()``) makes it a
        ``ValueError``."""
    @staticmethod
    def parse(text: str, *, edition: str = "3.5", strict: Optional[bool] = None) -> Weapon: ...
    @property
    def name(self) -> str: ...
    @property
    def range(self) -> Optional[int]:
        """Inches; ``None`` for a melee weapon."""
    @property
    def attacks(self) -> int: ...
    @property
    def count(self) -> int:
        """Copies of the weapon in the unit (the ``2x`` of ``2x Heavy Rifle``)."""
    @property
    def rules(self) -> tuple[str, ...]: ...
    @property
    def is_melee(self) -> bool: ...
    @property
    def profile(self) -> str:
        """The notation without the copy count."""
    def has_rule(self, name: str) -> bool: ...
    def rating(self, name: str) -> Optional[int]: ...
    def with_count(self, count: int) -> Weapon: ...
    def _repr_html_(self) -> str: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...

@final
class Model:
    """One model of a unit with what it carries."""

    @property
    def group(self) -> int:
        """0 for the unit's own models, 1 for a joined hero."""
    @property
    def quality(self) -> int: ...
    @property
    def defense(self) -> int: ...
    @property
    def tough(self) -> int: ...
    @property
    def is_hero(self) -> bool: ...
    @property
    def rules(self) -> tuple[str, ...]: ...
    @property
    def weapons(self) -> tuple[Weapon, ...]: ...
    def __eq__(self, other: object, /) -> bool: ...

@final
class Unit:
    """A unit profile in the Army Forge text notation (header line, weapons line)."""

    def __new__(
        cls,
        name: str,
        *,
        size: int,
        quality: int,
        defense: int,
        rules: Optional[Iterable[str]] = None,
        weapons: Optional[Iterable[Union[Weapon, str]]] = None,
        cost: Optional[int] = None,
        edition: str = "3.5",
        strict: Optional[bool] = None,
    ) -> Unit:
        """A rule name the library does not know gives an ``UnknownRuleWarning`` naming the
        closest known ones; ``strict=True`` (default: ``oprstats.get_strict()``) makes it a
        ``ValueError``."""
    @staticmethod
    def parse(text: str, *, edition: str = "3.5", strict: Optional[bool] = None) -> Unit: ...
    @property
    def name(self) -> str: ...
    @property
    def size(self) -> int:
        """Models in the unit, a joined hero included."""
    @property
    def quality(self) -> int: ...
    @property
    def defense(self) -> int: ...
    @property
    def cost(self) -> Optional[int]: ...
    @property
    def edition(self) -> str:
        """The edition the unit was read in: its rule names are checked against it, and a game of it is played in it."""
    @property
    def tough(self) -> int: ...
    @property
    def rules(self) -> tuple[str, ...]: ...
    @property
    def weapons(self) -> tuple[Weapon, ...]: ...
    @property
    def models(self) -> tuple[Model, ...]: ...
    @property
    def spells(self) -> dict[str, "Spell"]:
        """The spells its casters may cast: its book's, by name (empty if not read from a book)."""
    @property
    def hero(self) -> Optional[Unit]:
        """The joined hero, or ``None`` (v2.x, where several may join: the first)."""
    @property
    def heroes(self) -> tuple[Unit, ...]:
        """Every joined hero, in the order they joined (v2.x: several may join one unit)."""
    @property
    def base(self) -> Unit:
        """The unit without its joined hero."""
    def has_rule(self, name: str) -> bool: ...
    def rating(self, name: str) -> Optional[int]: ...
    def replace(self, *, quality: Optional[int] = None, defense: Optional[int] = None, cost: Optional[int] = None,
                models: Optional[int] = None) -> Unit:
        """A copy with the unit's own Quality, Defense, cost (the whole unit's) or number of
        models (its cost unchanged; what every model carries goes with each) changed."""
    def with_rules(self, *, add: Optional[Sequence[str]] = None, remove: Optional[Sequence[str]] = None,
                   strict: Optional[bool] = None) -> Unit:
        """A copy with rules added to the unit's own models (``"Furious"``, ``"Tough(3)"``, an
        item as ``"1x Banner(Fear(1))"``) and others taken away by name (any rating); its
        book's rules and spells stay. Removing a rule the unit lacks is a ``ValueError``
        naming the closest it carries."""
    def with_weapons(self, *, add: Optional[Sequence[Union[Weapon, str]]] = None, remove: Optional[Sequence[str]] = None,
                     strict: Optional[bool] = None) -> Unit:
        """A copy with weapons added to the unit's own models (counts are copies in the unit,
        as in ``"10x Rifle (24\", A1, AP(2))"``) and others taken away by name; its book's
        rules and spells stay."""
    def join(self, hero: Unit, *, edition: Optional[str] = None, strict: Optional[bool] = None) -> Unit:
        """Parts made under another edition than ``edition`` are checked again for rule names."""
    def unknown_rules(self, *, edition: Optional[str] = None) -> tuple[str, ...]:
        """Rule names neither the library knows under ``edition`` nor the unit's book defines."""
    def _repr_html_(self) -> str: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...

@final
class UpgradeOption:
    """One upgrade a unit may take, priced for that unit."""

    def __eq__(self, other: object, /) -> bool: ...
    # read-only at runtime (a frozen pyclass): properties, not attributes
    @property
    def package(self) -> str: ...
    @property
    def section(self) -> str: ...
    @property
    def variant(self) -> str: ...
    @property
    def targets(self) -> list[str]: ...
    @property
    def affects(self) -> Optional[str]: ...
    @property
    def select(self) -> Optional[str]: ...
    @property
    def label(self) -> str: ...
    @property
    def cost(self) -> int: ...
    @property
    def weapons(self) -> list[Weapon]: ...
    @property
    def rules(self) -> list[str]: ...

@final
class Spell:
    """A spell of an army book: its value in tokens, whom it picks and what it does (read
    from the book's structured effect; ``text`` is what the book prints)."""

    @property
    def name(self) -> str: ...
    @property
    def tokens(self) -> Optional[int]:
        """The spell's value: the tokens a caster spends to try it."""
    @property
    def text(self) -> str:
        """The effect as the book prints it."""
    @property
    def played(self) -> bool:
        """Whether games cast it (where some unit gains from it): damage spells, and spells whose
        rule, held once by a friend, an enemy or the attackers of a marked enemy, the game plays."""
    @property
    def kind(self) -> str:
        """"hits", "rule", "modifier", "range", "move", "terrain", "morale" or "unread"."""
    @property
    def enemy(self) -> Optional[bool]: ...
    @property
    def range(self) -> Optional[int]:
        """Inches ("within 12\"")."""
    @property
    def targets(self) -> Optional[int]:
        """How many units (or models) it picks at most."""
    @property
    def hits(self) -> Optional[int]:
        """A damage spell's hits; None for other spells."""
    @property
    def rules(self) -> list[str]:
        """The rules of a damage spell's hits, or the rule it gives or takes."""
    @property
    def modifier(self) -> Optional[tuple[str, int]]:
        """The roll a modifier spell changes and by how much."""
    def __eq__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...

def _spell_from_state(state: str, edition: str) -> Spell: ...

@final
class ArmyBook:
    """An Army Forge army book."""

    @property
    def name(self) -> str: ...
    @property
    def uid(self) -> str: ...
    @property
    def version(self) -> str: ...
    @property
    def edition(self) -> str: ...
    @property
    def game_system(self) -> Optional[str]:
        """The game system the book is for (``gameSystemSlug``), or None."""
    @property
    def own_edition(self) -> str:
        """The edition the book is for (its game system, then its ``versionString``)."""
    @property
    def units(self) -> tuple[Unit, ...]: ...
    @property
    def unit_ids(self) -> tuple[str, ...]: ...
    @property
    def special_rules(self) -> dict[str, str]: ...
    @property
    def spells(self) -> dict[str, Spell]:
        """The book's spells: name -> Spell."""
    @property
    def warnings(self) -> tuple[str, ...]: ...
    def unit(self, name: Union[str, Unit]) -> Unit: ...
    def __getitem__(self, key: Union[str, Unit], /) -> Unit: ...
    def __contains__(self, key: object, /) -> bool: ...
    def synced_from(self, unit: Union[str, Unit]) -> Optional[tuple[str, str]]: ...
    def upgrades(self, unit: Union[str, Unit]) -> list[UpgradeOption]: ...
    def variants(self, unit: Union[str, Unit]) -> list[tuple[str, Unit, int]]:
        """Loadouts with one upgrade option taken: ``(label, unit priced officially, option cost)``.
        An option that would make a unit over a limit (docs/limits.md) is a ``ValueError``
        naming it, as typing that unit would be."""
    def loadout(self, unit: Union[str, Unit], options: Sequence[str]) -> Unit:
        """The unit with several upgrade options taken together (labels as in ``variants``),
        priced officially: the default cost plus every option's. An unknown label, or one
        that does not fit the loadout before it, is a ``ValueError`` naming ``options[i]``."""
    def __len__(self) -> int: ...
    def __iter__(self) -> Iterator[Unit]: ...
    def _repr_html_(self) -> str: ...

@final
class Army:
    """An army list: units in play order, copies expanded, heroes joined."""

    def __new__(cls, units: Iterable[Unit], *, name: str = "", points_limit: Optional[int] = None) -> Army: ...
    @property
    def name(self) -> str: ...
    @property
    def game(self) -> Optional[str]: ...
    @property
    def version(self) -> Optional[str]: ...
    @property
    def edition(self) -> str:
        """The edition key the list was read under."""
    @property
    def points_limit(self) -> Optional[int]: ...
    @property
    def points(self) -> int: ...
    @property
    def units(self) -> tuple[Unit, ...]: ...
    def __len__(self) -> int: ...
    def __iter__(self) -> Iterator[Unit]: ...
    def _repr_html_(self) -> str: ...

class UnknownRuleWarning(UserWarning):
    """A rule name that neither the library nor the unit's book defines: it is kept by name,
    but no engine plays it."""

class ListWarning(UserWarning):
    """An army list that does not match the books it was read with: a unit not in them (read
    without its book's spells and rules), or a cost the book prices differently."""

def _weapon_from_text(text: str, edition: str) -> Weapon: ...
def _unit_from_text(text: str, edition: str, defined: Sequence[str] = ...) -> Unit: ...
# Pickle support: values rebuilt from their fields (JSON), with the checks every value passes.
def _weapon_from_state(state: str, edition: str) -> Weapon: ...
def _model_from_state(state: str, edition: str) -> Model: ...
def _upgrade_option_from_state(package: str, section: str, variant: str, targets: list[str], affects: Optional[str], select: Optional[str],
                               label: str, cost: int, weapons: list[Weapon], rules: list[str]) -> UpgradeOption: ...
def _unit_from_state(state: str, edition: str, defined: Sequence[str] = ..., spells: Optional[str] = None) -> Unit: ...
def _army_from_state(state: str, edition: str, defined: Sequence[str], spells: Optional[str] = None) -> Army: ...
def _army_book_from_state(state: str) -> ArmyBook: ...
# Every limit of docs/limits.md: (name, value).
def _limits() -> list[tuple[str, int]]: ...
def _load_army_book_json(text: str, edition: Optional[str] = None, strict: Optional[bool] = None) -> ArmyBook: ...
def _load_army_list_text(
    text: str, edition: Optional[str] = None, strict: Optional[bool] = None, books: Sequence[ArmyBook] = ...
) -> Army: ...
def _editions() -> list[tuple[str, str, str]]: ...
def _known_rules(edition: str = "3.5") -> list[tuple[str, bool, str]]: ...
def _rule_census(names: list[str], *, edition: str) -> list[Optional[tuple[list[str], Optional[str], Optional[str]]]]: ...
def _unmodelled_rules(unit: Unit, *, engine: str, edition: str = "3.5") -> list[str]: ...
def _known_rule_names(edition: str = "3.5") -> list[str]: ...
def _set_strict(strict: bool) -> bool: ...
def _get_strict() -> bool: ...
# (models lost, wounds, hero wounds, Shaken, fatigued)
_StateTuple = tuple[int, int, int, bool, bool]

def _attack(
    attacker: Union[Unit, Spell],
    target: Unit,
    weapons: Optional[list[str]],
    melee: bool,
    distance: float,
    charging: bool,
    cover: bool,
    moved: bool,
    target_moved: bool,
    fatigued: bool,
    attacker_state: _StateTuple,
    target_state: _StateTuple,
    edition: str,
    method: str,
    samples: int,
    seed: int,
    threads: Optional[int],
    /,
) -> _AttackStages: ...

def _attack_table(
    attackers: list[Unit],
    targets: list[Unit],
    melee: bool,
    distance: float,
    charging: bool,
    cover: bool,
    moved: bool,
    edition: str,
    threads: Optional[int],
    /,
) -> dict[str, Any]: ...

def _matchups(
    attackers: list[Unit],
    defenders: list[Unit],
    modes: list[str],
    charge_distance: float,
    edition: str,
    threads: Optional[int],
    per_pair: bool,
    /,
) -> dict[str, Any]: ...

def _matchup_activations(
    from_: list[Unit],
    to: list[Unit],
    offset: int,
    modes: list[str],
    charge_distance: float,
    edition: str,
    threads: Optional[int],
    /,
) -> dict[str, Any]: ...

def _matchups_square(blocks: list[dict[str, Any]], modes: list[str], /) -> dict[str, Any]: ...

@final
class _AttackStages:
    """An attack's distributions; the numpy arrays are made when a stage is read."""

    @property
    def groups(self) -> list[tuple[str, int]]: ...
    @property
    def unmodelled(self) -> list[str]: ...
    @property
    def size(self) -> int: ...
    @property
    def alive(self) -> int: ...
    @property
    def wound_effects(self) -> bool: ...
    @property
    def p_morale_test(self) -> float: ...
    @property
    def samples(self) -> Optional[int]: ...
    @property
    def dice(self) -> Optional[int]: ...
    def stage(self, name: str) -> npt.NDArray[np.float64]: ...
    def ends(self) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float64]]: ...

def _melee(
    charger: Unit,
    defender: Unit,
    *,
    charger_state: _StateTuple,
    defender_state: _StateTuple,
    strike_back: bool,
    distance: float,
    edition: str,
    method: str,
    samples: int,
    seed: int,
    threads: Optional[int],
) -> _MeleeOutcome: ...
@final
class _MeleeOutcome:
    """A melee's outcome as the core computed it; each array is made when it is read."""
    @property
    def unmodelled(self) -> list[str]: ...
    @property
    def resolution(self) -> bool:
        """Whether the edition resolves melee (who wins); Firefight does not."""
    @property
    def samples(self) -> Optional[int]: ...
    @property
    def dice(self) -> Optional[int]: ...
    @property
    def winner(self) -> tuple[float, float, float]:
        """(P(charger wins), P(defender wins), P(tie))."""
    @property
    def status(self) -> list[tuple[float, float, float, float]]:
        """Per side (charger, defender): (P(destroyed), P(routed), P(Shaken), P(unaffected))."""
    @property
    def sizes(self) -> tuple[int, int]:
        """The unit sizes (charger, defender)."""
    def wounds(self, side: int) -> npt.NDArray[np.float64]:
        """The pmf of the wounds `side` caused (0: the charger, 1: the defender)."""
    def lost(self, side: int) -> npt.NDArray[np.float64]:
        """The pmf of the models `side` lost."""
    def left(self) -> npt.NDArray[np.float64]:
        """`left[c, d]`: P(the charger has `c` models left and the defender `d`)."""
    def ends(self, side: int) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float64]]:
        """`side`'s states afterwards: (n × 5 state array, probabilities)."""

def _morale(unit: Unit, *, state: _StateTuple, melee: bool, edition: str) -> tuple[float, float, float, bool]:
    """(P(pass), P(Shaken), P(Rout), at half strength or less)."""

def _cost_terms(units: list[Unit], edition: str = "3.5") -> dict[str, Any]: ...
def _efficiency(unit: Unit, targets: list[tuple[Unit, bool]], *, modes: Optional[list[str]] = None, edition: str = "3.5") -> dict[str, Any]: ...
def _durability(unit: Unit, *, edition: str = "3.5") -> list[tuple[str, float]]: ...
def _reference_attackers(edition: str = "3.5") -> list[tuple[str, str, int]]: ...
def _reference_targets(edition: str = "3.5") -> list[tuple[str, Unit, bool]]: ...
def _curve_target(defense: int, tough: int, edition: str = "3.5") -> Unit: ...
def _efficiency_modes() -> list[str]: ...

@final
class _GamePrep:
    """Two armies ready to play (what every game of a run shares)."""

    def edition(self) -> str: ...
    def table(self) -> tuple[float, float]:
        """(width, depth) of the table, in inches."""
    def roles(self) -> list[list[str]]: ...
    def units(self) -> list[list[tuple[str, float, int, float]]]:
        """(name, points, models, footprint radius) of each unit, by army."""
    def charge_values(self) -> list[list[list[float]]]: ...
    def unmodelled(self) -> list[tuple[str, float, float]]:
        """(rule, share of army A's points, share of army B's points) of each rule the game ignores."""

_PieceTuple = tuple[str, float, float, float, float, bool, bool, bool, bool, bool]
_PolicyTuple = tuple[str, float, float, float, float, float, float, float, float, float, float]

def _game_editions() -> list[str]: ...
def _edition_key(edition: str) -> str: ...
def _prepare_game(army_a: Any, army_b: Any, *, edition: str, role_ratio: tuple[float, float]) -> _GamePrep: ...
def _simulate(
    prep: _GamePrep,
    *,
    seed: int,
    first_game: int,
    games: int,
    terrain: Optional[list[_PieceTuple]],
    objectives: Optional[list[tuple[float, float]]],
    policies: tuple[_PolicyTuple, _PolicyTuple],
    deployment: Optional[tuple[list[tuple[float, float]], list[tuple[float, float]]]],
    first: Optional[int],
    paired: bool,
    rounds: int,
    trace: bool,
    profile: bool,
    threads: Optional[int],
    line_up: Optional[float] = None,
) -> dict[str, Any]: ...

def _metagame(table: npt.NDArray[np.float64], clip: float, /) -> dict[str, Any]: ...
def _metagame_replicates(replicates: npt.NDArray[np.float64], first: int, clip: float, threads: Optional[int], /) -> dict[str, Any]: ...
