"""`policypal token` mints a token the gateway accepts, for a user or a tenant administrator."""

import pytest

from policypal.auth import verify_token
from policypal.cli.main import main
from policypal.config import get_settings


@pytest.mark.parametrize(("arguments", "role"), [([], "user"), (["--role", "admin"], "admin")])
def test_token_carries_the_role_asked_for(
    arguments: list[str], role: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["token", "--tenant", "acme", "--user", "ops", *arguments]) == 0
    principal = verify_token(get_settings(), capsys.readouterr().out.strip())
    assert (principal.tenant_id, principal.user_id, principal.role) == ("acme", "ops", role)


def test_other_roles_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["token", "--tenant", "acme", "--user", "ops", "--role", "service"])
    assert "invalid choice: 'service'" in capsys.readouterr().err
