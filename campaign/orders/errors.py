"""Refused orders: the exceptions the order services raise, and the codes that say why.

Every refusal carries three things: ``message``, the sentence players read (it names the order — its
position, kind and subject, e.g. "Order 3 (move, fleet 'Channel Fleet')" — and the reason; these texts
are part of the product and do not change lightly), ``code``, a stable snake_case :class:`RefusalCode`
that programs can test, and ``field``, the body key the refusal concerns ("path", "fleet", "class"…)
or None when it is about the whole order or the whole list. The order forms mark ``field``, the API
returns ``code`` and ``field`` beside each message, ``submit_orders`` prints the code.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import StrEnum
from typing import NoReturn


class RefusalCode(StrEnum):
    """Why an order was refused. Stable: programs depend on them; add codes, never rename them."""

    # -- the body's shape (schema.py) --
    NOT_AN_OBJECT = "not_an_object"  #: an order is not a JSON object
    NOT_A_LIST = "not_a_list"  #: a whole submission is not a JSON list
    NOT_JSON = "not_json"  #: a request body that is not JSON (the API)
    TOO_LARGE = "too_large"  #: a request body over the size limit (the API's JSON guard)
    TOO_DEEP = "too_deep"  #: a JSON document nested deeper than the limit (the API's JSON guard)
    UNKNOWN_KIND = "unknown_kind"  #: no "kind", or one that is not an order kind
    UNKNOWN_KEY = "unknown_key"  #: a key the kind does not take
    MISSING_KEY = "missing_key"  #: a required key is absent
    WRONG_TYPE = "wrong_type"  #: a value of the wrong JSON type (or an empty string or list)
    BAD_TEXT = "bad_text"  #: a string holds a NUL character or an unpaired surrogate
    OUT_OF_RANGE = "out_of_range"  #: a number below its minimum or beyond what the database holds
    REPEATED = "repeated"  #: a list names the same id twice
    NOT_A_CHOICE = "not_a_choice"  #: a value outside its fixed list (posture, class, unit…)
    # -- references --
    UNKNOWN_FLEET = "unknown_fleet"  #: not a fleet of the nation
    UNKNOWN_SHIP = "unknown_ship"  #: not a ship of the nation afloat
    UNKNOWN_PORT = "unknown_port"  #: no such port in the campaign
    UNKNOWN_ZONE = "unknown_zone"  #: no such sea zone in the campaign
    UNKNOWN_NATION = "unknown_nation"  #: no such nation in the campaign
    UNKNOWN_ADMIRAL = "unknown_admiral"  #: not an admiral of the nation
    # -- the list: one order of a kind, and orders listed before --
    ONE_PER_TURN = "one_per_turn"  #: the fleet, ship, admiral or nation already has such an order
    FLEET_MERGED = "fleet_merged"  #: the fleet is merged into another by an order listed before
    NO_SHIPS = "no_ships"  #: the fleet has no ship afloat
    CONFLICTING_ORDER = "conflicting_order"  #: a sally and a move for one fleet
    SHIP_REORGANISED = "ship_reorganised"  #: the ship is already moved by a transfer or new fleet
    # -- movement and places (RULES.md §4, §7) --
    PATH_TOO_LONG = "path_too_long"  #: more steps than the fleet may take
    NOT_ADJACENT = "not_adjacent"  #: a step to a zone not adjacent to the current one
    BAD_STEP = "bad_step"  #: "sea" at sea, entering a port from a port, or moving without leaving port
    WRONG_ZONE = "wrong_zone"  #: the port is not in the zone the fleet is (or will be) in
    IN_PORT = "in_port"  #: the fleet is (or will be) in another port than the one the order needs
    AT_SEA = "at_sea"  #: the fleet or ship is at sea where it must be in port
    DIFFERENT_PLACE = "different_place"  #: ships or fleets that are not in one place
    PORT_NOT_FRIENDLY = "port_not_friendly"  #: entering or retreating into a port neither own nor allied
    NOT_AT_WAR = "not_at_war"  #: running the guns of a port of a nation not at war
    OWN_PORT = "own_port"  #: attacking one's own port
    NEUTRAL_PORT = "neutral_port"  #: landing at a neutral port
    NOT_OWN_PORT = "not_own_port"  #: raising, repairing or laying up outside an own port
    PORT_REQUIRED = "port_required"  #: a blockade without a port
    PORT_NOT_ALLOWED = "port_not_allowed"  #: a port with a posture other than blockade
    IN_ORDINARY = "in_ordinary"  #: ships in ordinary cannot leave port
    # -- building, ships, fleets (RULES.md §1, §2, §3, §7, §9) --
    PORT_CANNOT_BUILD = "port_cannot_build"  #: not an own dockyard port, besieged, or taken lately
    OVER_QUOTA = "over_quota"  #: the 1st/2nd-rate quota
    FOUR_DECKER_LIMIT = "four_decker_limit"  #: the four-decker limit
    NOT_ENOUGH_EP = "not_enough_ep"  #: the treasury, less what is committed, does not pay for it
    BAD_NAME = "bad_name"  #: a ship or fleet name that is too long or already used
    BESIEGED = "besieged"  #: nothing is raised in a besieged port
    NOT_DAMAGED = "not_damaged"  #: only a damaged or disabled ship is repaired
    NO_DOCKYARD = "no_dockyard"  #: repairs need a dockyard
    RECENTLY_TAKEN = "recently_taken"  #: a port taken this turn or last does not repair
    BLOCKADED = "blockaded"  #: a port blockaded against the nation does not repair (known at resolution)
    OUT_OF_SUPPLY = "out_of_supply"  #: ships out of supply (unpaid upkeep, or phase 7) are not repaired
    ALREADY_IN_ORDINARY = "already_in_ordinary"  #: laying up a ship already in ordinary
    NOT_IN_ORDINARY = "not_in_ordinary"  #: recommissioning a ship in commission
    ALREADY_IN_FLEET = "already_in_fleet"  #: a transfer to the fleet the ship is in
    MERGE_INTO_ITSELF = "merge_into_itself"  #: a fleet merged into itself
    LINE_MISMATCH = "line_mismatch"  #: a line order that is not exactly the fleet's ships
    NO_FIRESHIP = "no_fireship"  #: a fireship attack without fireships
    ADMIRAL_NOT_ACTIVE = "admiral_not_active"  #: only an active admiral is appointed
    ALREADY_COMMANDS = "already_commands"  #: the admiral already commands that fleet
    NOT_ENOUGH_UNITS = "not_enough_units"  #: fewer land units there (or aboard) than ordered
    NOT_ENOUGH_TRANSPORTS = "not_enough_transports"  #: fewer empty transports than units to embark
    # -- diplomacy (RULES.md §10) --
    OWN_NATION = "own_nation"  #: a diplomatic order towards oneself
    WRONG_RELATION = "wrong_relation"  #: the order is not given from the current relation
    # -- the list and the turn as a whole --
    TURN_CLOSED = "turn_closed"  #: no open turn, the turn is resolving or resolved, the campaign ended
    WRONG_TURN = "wrong_turn"  #: the turn is not one of the nation's campaign
    ORDER_GONE = "order_gone"  #: the order was withdrawn meanwhile
    BREAKS_ANOTHER_ORDER = "breaks_another_order"  #: the change would leave another order refused
    STORE_CONFLICT = "store_conflict"  #: orders stored meanwhile conflict with these
    CANNOT_MOVE = "cannot_move"  #: an order moved past the top or the bottom of the list
    NOT_THE_LIST = "not_the_list"  #: a new order of the list that does not name each order once
    ORDERS_REFUSED = "orders_refused"  #: a whole list refused: see its ``refusals``
    LIST_CHANGED = "list_changed"  #: the list changed since the writer read it (the API's If-Match)
    DEADLINE_PASSED = "deadline_passed"  #: after the deadline only a GM enters a missing nation's orders
    LATE_REASON_REQUIRED = "late_reason_required"  #: a GM's order after the deadline needs a reason


class OrderRefused(ValueError):
    """An order (or a change of the order list) that is not allowed now; nothing was changed.

    ``message`` names the order and the reason; ``code`` says why in a word programs can test;
    ``field`` is the body key concerned (None: the whole order, list or turn); ``numbers`` the
    refusal's numbers by name (``cost``, ``available``, ``limit``…) so programs need not parse the
    message; ``index`` the order's place (from 0) in a submitted list, set by the list's check.
    """

    def __init__(
        self,
        message: str,
        *,
        code: RefusalCode,
        field: str | None = None,
        numbers: Mapping[str, int] | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.field = field
        self.numbers = dict(numbers or {})
        self.index: int | None = None


class TurnClosed(OrderRefused):
    """A write that names a turn (issue 26: a form's hidden ``turn``, the API's ``"turn"`` or an ETag
    read in it) that is no longer the open one; nothing was changed. ``asked``: the turn named;
    ``open_turn``: the campaign's open turn now, or None while none is open."""

    def __init__(self, *, asked: int, open_turn: int | None) -> None:
        if open_turn is not None and open_turn > asked:
            message = f"Turn {asked} has resolved — here is turn {open_turn}. Nothing was changed."
        elif open_turn is not None:
            message = f"Turn {asked} is not the open turn — here is turn {open_turn}. Nothing was changed."
        else:
            message = f"Turn {asked} is closed: its orders are being resolved. Nothing was changed."
        super().__init__(message, code=RefusalCode.TURN_CLOSED, field="turn")
        self.asked = asked
        self.open_turn = open_turn


class ListChanged(OrderRefused):
    """The order list changed since the writer read it (its version is not the one the writer holds)."""

    def __init__(self) -> None:
        super().__init__(
            "The order list changed since you read it; read it again and resend your change. Nothing was changed.",
            code=RefusalCode.LIST_CHANGED,
        )


class OrdersRefused(OrderRefused):
    """A list of orders refused as a whole: ``refusals`` holds every refused order (``errors`` their
    messages), in listed order."""

    def __init__(self, refusals: Sequence[OrderRefused]) -> None:
        super().__init__("\n".join(r.message for r in refusals), code=RefusalCode.ORDERS_REFUSED)
        self.refusals = list(refusals)
        self.errors = [r.message for r in refusals]


class CheckFailed(ValueError):
    """A rule check (board.py) failed: the text is the bare reason (the caller names the order),
    ``code`` says which rule, ``numbers`` the numbers the reason states."""

    def __init__(self, reason: str, *, code: RefusalCode, numbers: Mapping[str, int] | None = None) -> None:
        super().__init__(reason)
        self.code = code
        #: The numbers the reason states, by name: the refusal carries them for programs.
        self.numbers = dict(numbers or {})


class OrderCheck:
    """The order being checked: its position, kind and subject name it in every refusal."""

    def __init__(self, position: int, kind: str) -> None:
        self.position = position
        self.kind = kind
        self.subject: str | None = None

    @property
    def label(self) -> str:
        # The kind in words ("lay down", not "lay_down"): players read refusals on the order page.
        kind = self.kind.replace("_", " ")
        inner = kind if self.subject is None else f"{kind}, {self.subject}"
        return f"Order {self.position} ({inner})"

    def refuse(
        self, reason: str, *, code: RefusalCode, field: str | None, numbers: Mapping[str, int] | None = None
    ) -> NoReturn:
        raise OrderRefused(f"{self.label}: {reason}.", code=code, field=field, numbers=numbers)

    def refuse_failed(self, failed: CheckFailed, *, field: str | None) -> NoReturn:
        """Refuse with a rule check's reason and code."""
        self.refuse(str(failed), code=failed.code, field=field, numbers=failed.numbers)
