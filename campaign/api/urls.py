from django.urls import path

from campaign.api import dispatch_views, map_views, order_views, play_views, table_views, views, webhook_views

app_name = "campaign-api"
urlpatterns = [
    path("campaigns/", views.CampaignListView.as_view(), name="campaigns"),
    path("campaigns/<slug:slug>/", views.CampaignDetailView.as_view(), name="campaign"),
    path("campaigns/<slug:slug>/fleets/", views.FleetListView.as_view(), name="fleets"),
    path("campaigns/<slug:slug>/ledger/", views.LedgerView.as_view(), name="ledger"),
    path("campaigns/<slug:slug>/orders/", order_views.OrderListView.as_view(), name="orders"),
    path("campaigns/<slug:slug>/orders/validate/", order_views.OrderValidateView.as_view(), name="orders_validate"),
    path("campaigns/<slug:slug>/orders/<int:order_id>/", order_views.OrderDetailView.as_view(), name="order"),
    path("campaigns/<slug:slug>/ports/", map_views.PortListView.as_view(), name="ports"),
    path("campaigns/<slug:slug>/zones/", map_views.ZoneListView.as_view(), name="zones"),
    path("campaigns/<slug:slug>/dispatches/", dispatch_views.DispatchListView.as_view(), name="dispatches"),
    path(
        "campaigns/<slug:slug>/dispatches/<int:dispatch_id>/",
        dispatch_views.DispatchDetailView.as_view(),
        name="dispatch",
    ),
    path(
        "campaigns/<slug:slug>/dispatches/<int:dispatch_id>/read/",
        dispatch_views.DispatchReadView.as_view(),
        name="dispatch_read",
    ),
    path("campaigns/<slug:slug>/nations/", play_views.NationListView.as_view(), name="nations"),
    path("campaigns/<slug:slug>/rules/", play_views.RulesView.as_view(), name="rules"),
    path("campaigns/<slug:slug>/fleets/<int:fleet_id>/moves/", play_views.FleetMovesView.as_view(), name="fleet_moves"),
    path("campaigns/<slug:slug>/turns/", play_views.TurnListView.as_view(), name="turns"),
    path("campaigns/<slug:slug>/ready/", views.ReadyView.as_view(), name="ready"),
    path("campaigns/<slug:slug>/turns/<int:number>/", views.TurnReportView.as_view(), name="turn"),
    path("campaigns/<slug:slug>/table/", table_views.TableListView.as_view(), name="tables"),
    path("campaigns/<slug:slug>/table/<int:table_id>/", table_views.TableBattleView.as_view(), name="table"),
    path(
        "campaigns/<slug:slug>/table/<int:table_id>/result/",
        table_views.TableResultView.as_view(),
        name="table_result",
    ),
    path(
        "campaigns/<slug:slug>/table/<int:table_id>/storming-result/",
        table_views.TableStormingResultView.as_view(),
        name="table_storming_result",
    ),
    path(
        "campaigns/<slug:slug>/table/<int:table_id>/confirm/",
        table_views.TableConfirmView.as_view(),
        name="table_confirm",
    ),
    path(
        "campaigns/<slug:slug>/table/<int:table_id>/approve/",
        table_views.TableApproveView.as_view(),
        name="table_approve",
    ),
    path("campaigns/<slug:slug>/webhooks/", webhook_views.WebhookListView.as_view(), name="webhooks"),
    path("campaigns/<slug:slug>/webhooks/<int:hook_id>/", webhook_views.WebhookDetailView.as_view(), name="webhook"),
]
