"""What every socket of the site shares."""

import json


async def refuse(consumer, code: int, reason: str) -> None:
    """Turn a socket away with a close code, saying why first in an error message (daphne
    sends no close reason). Closing before accepting would make daphne answer the handshake
    with a bare HTTP 403, which a client can't tell from any other failed connection."""
    await consumer.accept()
    await consumer.send(text_data=json.dumps({"type": "error", "message": reason}))
    await consumer.close(code=code)
