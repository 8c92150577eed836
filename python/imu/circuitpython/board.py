"""Stand-in for Blinka's `board`: the pins and bus a script passes to a driver. The daemon owns
the real bus, so these only carry the socket to read through (None: the default paths)."""

from .busio import I2C as _I2C

SCL = "SCL"
SDA = "SDA"


def I2C(socket=None):  # noqa: N802 (Blinka's name)
    """The board's I²C bus, as the daemon shares it."""
    return _I2C(SCL, SDA, socket=socket)


def STEMMA_I2C(socket=None):  # noqa: N802 (Blinka's name)
    return I2C(socket=socket)
