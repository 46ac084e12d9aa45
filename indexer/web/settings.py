"""The ``serve.*`` settings section of ``indexer serve``, part of
:class:`indexer.settings.Settings` (loaded, layered and validated there like every section)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, SecretStr


class ServeSettings(BaseModel):
    """The web interface, ``indexer serve`` (``serve.*``)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    host: str = Field(
        "127.0.0.1", description="Bind address; any but loopback needs serve.admin_password."
    )
    port: int = Field(8080, ge=0, le=65535, description="TCP port of the web interface.")
    admin_password: SecretStr | None = Field(
        None,
        description="Password of the admin views; required to bind a non-loopback address "
        "(on 127.0.0.1 a random one is printed at each start when unset). Never logged.",
    )
