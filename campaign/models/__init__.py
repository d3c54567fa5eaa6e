"""The campaign app's models, one module per group; every model is imported here, so Django registers
them with the app and ``from campaign.models import X`` works for each.

* ``campaigns``   Campaign, Nation, the EP ledger, relations and diplomatic offers (the campaign itself)
* ``turns``       Turn, TurnPhase, NationTurn, TurnReport, Season: a campaign's turns and what each records
* ``orders``      Order: what a nation ordered, as stored (what it may say is ``campaign.orders``)
* ``mail``        Delivery, MailPreference, Announcement, UserProfile (time zone), CalendarToken
* ``dispatches``  the players' written diplomacy: conversations, dispatches, their copies and reports
* ``audit``       the GM's append-only audit log
* ``repairs``     CampaignRevert: what a GM's revert set aside
* ``invitations`` an invitation to play a nation or to help run the campaign
* ``api_tokens``  personal API tokens; ``idempotency`` an API write's Idempotency-Key and its answer
* ``webhooks``    the URLs told of a campaign's events, and each delivery to them

The modules other than ``campaigns`` name its models by string ("campaign.Campaign").
"""

from campaign.models.api_tokens import ApiToken as ApiToken
from campaign.models.audit import AuditAction as AuditAction
from campaign.models.audit import AuditEntry as AuditEntry
from campaign.models.campaigns import Campaign as Campaign
from campaign.models.campaigns import DiplomaticOffer as DiplomaticOffer
from campaign.models.campaigns import LedgerEntry as LedgerEntry
from campaign.models.campaigns import Nation as Nation
from campaign.models.campaigns import NmrPolicy as NmrPolicy
from campaign.models.campaigns import Relation as Relation
from campaign.models.campaigns import Victory as Victory
from campaign.models.campaigns import slug_validator as slug_validator
from campaign.models.dispatches import DISPATCH_OPTIONS as DISPATCH_OPTIONS
from campaign.models.dispatches import EDIT_WINDOW_SECONDS as EDIT_WINDOW_SECONDS
from campaign.models.dispatches import Conversation as Conversation
from campaign.models.dispatches import Dispatch as Dispatch
from campaign.models.dispatches import DispatchCopy as DispatchCopy
from campaign.models.dispatches import DispatchMute as DispatchMute
from campaign.models.dispatches import DispatchReport as DispatchReport
from campaign.models.dispatches import DispatchRevision as DispatchRevision
from campaign.models.dispatches import Press as Press
from campaign.models.idempotency import IdempotencyKey as IdempotencyKey
from campaign.models.invitations import Invitation as Invitation
from campaign.models.mail import Announcement as Announcement
from campaign.models.mail import CalendarToken as CalendarToken
from campaign.models.mail import Delivery as Delivery
from campaign.models.mail import MailEvent as MailEvent
from campaign.models.mail import MailPreference as MailPreference
from campaign.models.mail import UserProfile as UserProfile
from campaign.models.orders import Order as Order
from campaign.models.repairs import CampaignRevert as CampaignRevert
from campaign.models.turns import NationTurn as NationTurn
from campaign.models.turns import Season as Season
from campaign.models.turns import Turn as Turn
from campaign.models.turns import TurnPhase as TurnPhase
from campaign.models.turns import TurnReport as TurnReport
from campaign.models.webhooks import Webhook as Webhook
from campaign.models.webhooks import WebhookDelivery as WebhookDelivery
from campaign.models.webhooks import WebhookEvent as WebhookEvent
from campaign.models.webhooks import WebhookFormat as WebhookFormat
