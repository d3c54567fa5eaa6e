"""The ``battles`` URL namespace. The campaign serves it: the battle pages carry the campaign's header,
which the battles app may not import (see :mod:`campaign.pages.battle_views`). The simulator without a
campaign (the rulebook's defaults) is the battles app's own view.
"""

from django.urls import path

from battles import views as simulator_views
from campaign.pages import battle_views

app_name = "battles"
urlpatterns = [
    path("campaigns/<slug:slug>/battles/", battle_views.battle_list, name="list"),
    path("campaigns/<slug:slug>/battles/<int:battle_id>/", battle_views.battle_detail, name="detail"),
    path("simulator/", simulator_views.simulator, name="simulator"),
]
