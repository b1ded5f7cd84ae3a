"""The explicit catalog of games (as OpenSpiel lists its games): id -> ENGINE."""

from __future__ import annotations

from app.games.base import Engine
from app.games.ginkgopolis import ENGINE as GINKGOPOLIS
from app.games.gluckauf import ENGINE as GLUCKAUF
from app.games.luz import ENGINE as LUZ
from app.games.mine import ENGINE as MINE

REGISTRY: dict[str, Engine] = {
    GLUCKAUF.info.id: GLUCKAUF,
    LUZ.info.id: LUZ,
    MINE.info.id: MINE,
    GINKGOPOLIS.info.id: GINKGOPOLIS,
}
