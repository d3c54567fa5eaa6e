from django.urls import path

from battles import views

app_name = "battles"
urlpatterns = [
    path("campaigns/<slug:slug>/battles/", views.battle_list, name="list"),
    path("campaigns/<slug:slug>/battles/<int:battle_id>/", views.battle_detail, name="detail"),
    path("simulator/", views.simulator, name="simulator"),
]
