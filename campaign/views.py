from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from campaign import selectors


def home(request: HttpRequest) -> HttpResponse:
    """The landing page: the campaigns the visitor can see."""
    campaigns = selectors.campaigns_for_user(user=request.user)
    return render(request, "campaign/home.html", {"campaigns": campaigns})
