"""The model field for a name people type and read (campaigns, nations, fleets, ships): one validator
and one normal form everywhere (rules.names), kept by the database too (issue 27, items 9 and 11).

``NameField`` stores a name in NFKC (full-width letters and ligatures become plain ones) with its
whitespace collapsed, on every write and in every lookup (a write that skipped validation keeps no line
break: it becomes a space), so uniqueness is decided between names as
they look; its validator refuses control, invisible and text-direction characters with a readable
message (forms, the admin and the API's serializers run it); :func:`name_check` is the matching
CHECK constraint for the model's ``Meta.constraints``.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q

from rules.names import REFUSED_PATTERN, name_fault, name_nfkc, name_normalised


def validate_name(value: Any) -> None:
    """Django validator: a name with a control, invisible or text-direction character is refused."""
    if isinstance(value, str):
        fault = name_fault(value)
        if fault is not None:
            raise ValidationError(f"This name cannot be used: {fault}.", code="name_character")


def _normal(value: Any) -> Any:
    return name_normalised(value) if isinstance(value, str) else value


class NameField(models.CharField):
    """A CharField holding a name in its normal form, refused with a control or invisible character."""

    default_validators = [validate_name]

    def to_python(self, value: Any) -> Any:
        # NFKC only: a line break must reach the validator (and be refused), not become a space.
        value = super().to_python(value)
        return name_nfkc(value) if isinstance(value, str) else value

    def get_prep_value(self, value: Any) -> Any:
        return _normal(super().get_prep_value(value))

    def pre_save(self, model_instance: models.Model, add: bool) -> Any:
        value = _normal(getattr(model_instance, self.attname))
        setattr(model_instance, self.attname, value)
        return value


def name_check(field: str, name: str) -> models.CheckConstraint:
    """The database's side of :func:`validate_name`: no control, invisible or direction character."""
    return models.CheckConstraint(
        condition=~Q(**{f"{field}__regex": REFUSED_PATTERN}),
        name=name,
        violation_error_message="A name cannot hold a control, invisible or text-direction character.",
    )
