from django.urls import path

from campaign.dispatches import views as dispatch_views
from campaign.mail import views as mail_views
from campaign.orders import answer_views
from campaign.orders import views as order_views
from campaign.pages import views
from campaign.players import views as invitation_views
from campaign.tabletop import views as table_views

app_name = "campaign"
urlpatterns = [
    path("", views.home, name="home"),
    path("settings/", views.settings_view, name="settings"),
    path("settings/api-tokens/", views.api_tokens_manage, name="api_tokens_manage"),
    path("settings/calendar/", mail_views.calendar_manage, name="calendar_manage"),
    path("calendar/<str:token>.ics", mail_views.calendar_feed, name="calendar_feed"),
    path("mail/unsubscribe/<str:token>/", mail_views.unsubscribe, name="mail_unsubscribe"),
    path("invitations/<str:token>/", invitation_views.invitation, name="invitation"),
    path("campaigns/<slug:slug>/mail/", mail_views.preferences, name="mail_preferences"),
    path("campaigns/<slug:slug>/", views.dashboard, name="dashboard"),
    path("campaigns/<slug:slug>/ready/", views.ready, name="ready"),
    path("campaigns/<slug:slug>/map/", views.map_view, name="map"),
    path("campaigns/<slug:slug>/map/move/", views.map_move, name="map_move"),
    path("campaigns/<slug:slug>/map/order/", views.map_order, name="map_order"),
    path("campaigns/<slug:slug>/map/withdraw/", views.map_withdraw, name="map_withdraw"),
    path("campaigns/<slug:slug>/rules/", views.rules, name="rules"),
    path("campaigns/<slug:slug>/simulator/", views.simulator, name="simulator"),
    path("campaigns/<slug:slug>/turns/", views.turn_list, name="turns"),
    path("campaigns/<slug:slug>/turns/<int:number>/", views.turn_detail, name="turn"),
    path("campaigns/<slug:slug>/table/", table_views.tables, name="tables"),
    path("campaigns/<slug:slug>/table/<int:table_id>/", table_views.table_detail, name="table"),
    path("campaigns/<slug:slug>/table/<int:table_id>/pack/", table_views.table_pack, name="table_pack"),
    path("campaigns/<slug:slug>/table/<int:table_id>/pack.pdf", table_views.table_pack_pdf, name="table_pack_pdf"),
    path("campaigns/<slug:slug>/orders/", order_views.orders_page, name="orders"),
    path("campaigns/<slug:slug>/offers/answer/", answer_views.offer_answer_view, name="offer_answer"),
    path("campaigns/<slug:slug>/orders/<int:order_id>/", order_views.order_edit, name="order_edit"),
    path("campaigns/<slug:slug>/orders/<int:order_id>/move/", order_views.order_move_view, name="order_move"),
    path(
        "campaigns/<slug:slug>/orders/<int:order_id>/withdraw/",
        order_views.order_withdraw_view,
        name="order_withdraw",
    ),
    path("campaigns/<slug:slug>/dispatches/", dispatch_views.dispatches_page, name="dispatches"),
    path("campaigns/<slug:slug>/dispatches/mute/", dispatch_views.nation_mute_view, name="dispatch_mute"),
    path(
        "campaigns/<slug:slug>/dispatches/mute/<int:mute_id>/lift/",
        dispatch_views.nation_unmute_view,
        name="dispatch_unmute",
    ),
    path(
        "campaigns/<slug:slug>/dispatches/<int:conversation_id>/",
        dispatch_views.conversation_page,
        name="conversation",
    ),
    path(
        "campaigns/<slug:slug>/dispatches/message/<int:dispatch_id>/edit/",
        dispatch_views.dispatch_edit_view,
        name="dispatch_edit",
    ),
    path(
        "campaigns/<slug:slug>/dispatches/message/<int:dispatch_id>/report/",
        dispatch_views.dispatch_report_view,
        name="dispatch_report",
    ),
    path(
        "campaigns/<slug:slug>/dispatches/message/<int:dispatch_id>/hide/",
        dispatch_views.dispatch_hide_view,
        name="dispatch_hide",
    ),
]
