"""Contains all the data models used in inputs/outputs"""

from .ai_change_out import AiChangeOut
from .ai_change_out_proposed_item import AiChangeOutProposedItem
from .ai_change_out_was_type_0 import AiChangeOutWasType0
from .ai_draft_in import AiDraftIn
from .ai_edit_in import AiEditIn
from .ai_edit_in_source import AiEditInSource
from .ai_edit_in_variables_type_0_item import AiEditInVariablesType0Item
from .ai_job_out import AiJobOut
from .ai_job_out_source_type_0 import AiJobOutSourceType0
from .ai_patches_out import AiPatchesOut
from .ai_seat_out import AiSeatOut
from .ai_usage_out import AiUsageOut
from .ai_value_out import AiValueOut
from .approval_out import ApprovalOut
from .brief_in import BriefIn
from .brief_in_answers_type_0 import BriefInAnswersType0
from .brief_payment_in import BriefPaymentIn
from .check_field_out import CheckFieldOut
from .check_item_out import CheckItemOut
from .check_out import CheckOut
from .currency_out import CurrencyOut
from .delivery_attempt_out import DeliveryAttemptOut
from .delivery_attempts_out import DeliveryAttemptsOut
from .delivery_out import DeliveryOut
from .document_check_in import DocumentCheckIn
from .document_check_in_facts_type_0 import DocumentCheckInFactsType0
from .document_check_in_source import DocumentCheckInSource
from .document_check_in_variable_values_type_0 import DocumentCheckInVariableValuesType0
from .document_create_in import DocumentCreateIn
from .document_create_in_facts_type_0 import DocumentCreateInFactsType0
from .document_create_in_metadata_type_0 import DocumentCreateInMetadataType0
from .document_create_in_source import DocumentCreateInSource
from .document_create_in_variable_values_type_0 import (
    DocumentCreateInVariableValuesType0,
)
from .document_out import DocumentOut
from .document_out_metadata import DocumentOutMetadata
from .document_page_out import DocumentPageOut
from .document_revise_in import DocumentReviseIn
from .document_revise_in_facts_type_0 import DocumentReviseInFactsType0
from .document_revise_in_role_map_type_0 import DocumentReviseInRoleMapType0
from .document_revise_in_source import DocumentReviseInSource
from .document_revise_in_variable_values_type_0 import (
    DocumentReviseInVariableValuesType0,
)
from .document_source_out import DocumentSourceOut
from .document_source_out_email import DocumentSourceOutEmail
from .document_source_out_facts import DocumentSourceOutFacts
from .document_source_out_metadata import DocumentSourceOutMetadata
from .document_source_out_people_item import DocumentSourceOutPeopleItem
from .document_source_out_send import DocumentSourceOutSend
from .document_source_out_source import DocumentSourceOutSource
from .document_source_out_variable_values import DocumentSourceOutVariableValues
from .documents_list_metadata import DocumentsListMetadata
from .draft_answers_in import DraftAnswersIn
from .draft_answers_in_answers import DraftAnswersInAnswers
from .draft_in import DraftIn
from .draft_in_answers_type_0 import DraftInAnswersType0
from .draft_out import DraftOut
from .draft_out_answers import DraftOutAnswers
from .email_options_in import EmailOptionsIn
from .email_out import EmailOut
from .email_page_out import EmailPageOut
from .email_preview_out import EmailPreviewOut
from .email_template_out import EmailTemplateOut
from .email_templates_out import EmailTemplatesOut
from .email_variable_out import EmailVariableOut
from .email_wording_in import EmailWordingIn
from .email_wording_out import EmailWordingOut
from .embed_session_in import EmbedSessionIn
from .embed_session_out import EmbedSessionOut
from .error import Error
from .error_error import ErrorError
from .error_error_kind import ErrorErrorKind
from .field_area_out import FieldAreaOut
from .frame_session_in import FrameSessionIn
from .frame_session_out import FrameSessionOut
from .header_out import HeaderOut
from .page_info import PageInfo
from .party_in import PartyIn
from .party_in_metadata_type_0 import PartyInMetadataType0
from .payment_out import PaymentOut
from .payment_readiness import PaymentReadiness
from .payments_connect_out import PaymentsConnectOut
from .payments_status_out import PaymentsStatusOut
from .person_in import PersonIn
from .person_in_metadata_type_0 import PersonInMetadataType0
from .person_out import PersonOut
from .person_out_metadata import PersonOutMetadata
from .play_condition_out import PlayConditionOut
from .play_duplicate_in import PlayDuplicateIn
from .play_list_out import PlayListOut
from .play_option_out import PlayOptionOut
from .play_out import PlayOut
from .play_problem_out import PlayProblemOut
from .play_publish_in import PlayPublishIn
from .play_question_out import PlayQuestionOut
from .play_seat_out import PlaySeatOut
from .play_source_in import PlaySourceIn
from .play_summary_out import PlaySummaryOut
from .play_test_out import PlayTestOut
from .play_test_out_answers import PlayTestOutAnswers
from .play_test_out_preview_type_0 import PlayTestOutPreviewType0
from .play_version_out import PlayVersionOut
from .playbook_in import PlaybookIn
from .playbook_list_out import PlaybookListOut
from .playbook_out import PlaybookOut
from .preview_field_out import PreviewFieldOut
from .preview_page_out import PreviewPageOut
from .relay_item_out import RelayItemOut
from .relay_out import RelayOut
from .remind_in import RemindIn
from .report_day_out import ReportDayOut
from .report_out import ReportOut
from .send_options_in import SendOptionsIn
from .team_member_out import TeamMemberOut
from .team_out import TeamOut
from .teams_out import TeamsOut
from .template_defaults import TemplateDefaults
from .template_defaults_send_type_0 import TemplateDefaultsSendType0
from .template_document_in import TemplateDocumentIn
from .template_document_in_facts_type_0 import TemplateDocumentInFactsType0
from .template_document_in_metadata_type_0 import TemplateDocumentInMetadataType0
from .template_document_in_variable_values_type_0 import (
    TemplateDocumentInVariableValuesType0,
)
from .template_field_out import TemplateFieldOut
from .template_file_in import TemplateFileIn
from .template_file_in_metadata_type_0 import TemplateFileInMetadataType0
from .template_html_in import TemplateHtmlIn
from .template_html_in_metadata_type_0 import TemplateHtmlInMetadataType0
from .template_out import TemplateOut
from .template_out_metadata import TemplateOutMetadata
from .template_page_out import TemplatePageOut
from .template_preview_in import TemplatePreviewIn
from .template_preview_in_source import TemplatePreviewInSource
from .template_preview_out import TemplatePreviewOut
from .template_send_in import TemplateSendIn
from .template_send_in_metadata_type_0 import TemplateSendInMetadataType0
from .template_source_in import TemplateSourceIn
from .template_source_in_metadata_type_0 import TemplateSourceInMetadataType0
from .template_source_in_source import TemplateSourceInSource
from .template_source_out import TemplateSourceOut
from .template_source_out_source import TemplateSourceOutSource
from .template_version_in import TemplateVersionIn
from .template_version_in_source import TemplateVersionInSource
from .test_sign_in import TestSignIn
from .topic_out import TopicOut
from .topics_out import TopicsOut
from .usage_counter_out import UsageCounterOut
from .usage_out import UsageOut
from .void_in import VoidIn
from .webhook_create_in import WebhookCreateIn
from .webhook_out import WebhookOut
from .webhook_page_out import WebhookPageOut
from .webhook_rotate_in import WebhookRotateIn
from .webhook_test_in import WebhookTestIn
from .webhook_test_out import WebhookTestOut
from .wizard_option_out import WizardOptionOut
from .wizard_out import WizardOut
from .wizard_question_out import WizardQuestionOut

__all__ = (
    "AiChangeOut",
    "AiChangeOutProposedItem",
    "AiChangeOutWasType0",
    "AiDraftIn",
    "AiEditIn",
    "AiEditInSource",
    "AiEditInVariablesType0Item",
    "AiJobOut",
    "AiJobOutSourceType0",
    "AiPatchesOut",
    "AiSeatOut",
    "AiUsageOut",
    "AiValueOut",
    "ApprovalOut",
    "BriefIn",
    "BriefInAnswersType0",
    "BriefPaymentIn",
    "CheckFieldOut",
    "CheckItemOut",
    "CheckOut",
    "CurrencyOut",
    "DeliveryAttemptOut",
    "DeliveryAttemptsOut",
    "DeliveryOut",
    "DocumentCheckIn",
    "DocumentCheckInFactsType0",
    "DocumentCheckInSource",
    "DocumentCheckInVariableValuesType0",
    "DocumentCreateIn",
    "DocumentCreateInFactsType0",
    "DocumentCreateInMetadataType0",
    "DocumentCreateInSource",
    "DocumentCreateInVariableValuesType0",
    "DocumentOut",
    "DocumentOutMetadata",
    "DocumentPageOut",
    "DocumentReviseIn",
    "DocumentReviseInFactsType0",
    "DocumentReviseInRoleMapType0",
    "DocumentReviseInSource",
    "DocumentReviseInVariableValuesType0",
    "DocumentSourceOut",
    "DocumentSourceOutEmail",
    "DocumentSourceOutFacts",
    "DocumentSourceOutMetadata",
    "DocumentSourceOutPeopleItem",
    "DocumentSourceOutSend",
    "DocumentSourceOutSource",
    "DocumentSourceOutVariableValues",
    "DocumentsListMetadata",
    "DraftAnswersIn",
    "DraftAnswersInAnswers",
    "DraftIn",
    "DraftInAnswersType0",
    "DraftOut",
    "DraftOutAnswers",
    "EmailOptionsIn",
    "EmailOut",
    "EmailPageOut",
    "EmailPreviewOut",
    "EmailTemplateOut",
    "EmailTemplatesOut",
    "EmailVariableOut",
    "EmailWordingIn",
    "EmailWordingOut",
    "EmbedSessionIn",
    "EmbedSessionOut",
    "Error",
    "ErrorError",
    "ErrorErrorKind",
    "FieldAreaOut",
    "FrameSessionIn",
    "FrameSessionOut",
    "HeaderOut",
    "PageInfo",
    "PartyIn",
    "PartyInMetadataType0",
    "PaymentOut",
    "PaymentReadiness",
    "PaymentsConnectOut",
    "PaymentsStatusOut",
    "PersonIn",
    "PersonInMetadataType0",
    "PersonOut",
    "PersonOutMetadata",
    "PlayConditionOut",
    "PlayDuplicateIn",
    "PlayListOut",
    "PlayOptionOut",
    "PlayOut",
    "PlayProblemOut",
    "PlayPublishIn",
    "PlayQuestionOut",
    "PlaySeatOut",
    "PlaySourceIn",
    "PlaySummaryOut",
    "PlayTestOut",
    "PlayTestOutAnswers",
    "PlayTestOutPreviewType0",
    "PlayVersionOut",
    "PlaybookIn",
    "PlaybookListOut",
    "PlaybookOut",
    "PreviewFieldOut",
    "PreviewPageOut",
    "RelayItemOut",
    "RelayOut",
    "RemindIn",
    "ReportDayOut",
    "ReportOut",
    "SendOptionsIn",
    "TeamMemberOut",
    "TeamOut",
    "TeamsOut",
    "TemplateDefaults",
    "TemplateDefaultsSendType0",
    "TemplateDocumentIn",
    "TemplateDocumentInFactsType0",
    "TemplateDocumentInMetadataType0",
    "TemplateDocumentInVariableValuesType0",
    "TemplateFieldOut",
    "TemplateFileIn",
    "TemplateFileInMetadataType0",
    "TemplateHtmlIn",
    "TemplateHtmlInMetadataType0",
    "TemplateOut",
    "TemplateOutMetadata",
    "TemplatePageOut",
    "TemplatePreviewIn",
    "TemplatePreviewInSource",
    "TemplatePreviewOut",
    "TemplateSendIn",
    "TemplateSendInMetadataType0",
    "TemplateSourceIn",
    "TemplateSourceInMetadataType0",
    "TemplateSourceInSource",
    "TemplateSourceOut",
    "TemplateSourceOutSource",
    "TemplateVersionIn",
    "TemplateVersionInSource",
    "TestSignIn",
    "TopicOut",
    "TopicsOut",
    "UsageCounterOut",
    "UsageOut",
    "VoidIn",
    "WebhookCreateIn",
    "WebhookOut",
    "WebhookPageOut",
    "WebhookRotateIn",
    "WebhookTestIn",
    "WebhookTestOut",
    "WizardOptionOut",
    "WizardOut",
    "WizardQuestionOut",
)
