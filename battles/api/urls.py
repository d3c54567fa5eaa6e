from django.urls import path

from battles.api import views

app_name = "battles-api"
urlpatterns = [
    path("campaigns/<slug:slug>/battles/", views.BattleListView.as_view(), name="battles"),
    path("campaigns/<slug:slug>/battles/<int:battle_id>/", views.BattleDetailView.as_view(), name="battle"),
    path("simulator/", views.SimulatorView.as_view(), name="simulator"),
]
