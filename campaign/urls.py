from django.urls import path

from campaign import order_views, views

app_name = "campaign"
urlpatterns = [
    path("", views.home, name="home"),
    path("campaigns/<slug:slug>/orders/", order_views.orders_page, name="orders"),
    path("campaigns/<slug:slug>/orders/<int:order_id>/", order_views.order_edit, name="order_edit"),
    path(
        "campaigns/<slug:slug>/orders/<int:order_id>/withdraw/",
        order_views.order_withdraw_view,
        name="order_withdraw",
    ),
]
