// Written by frontend/types.mjs from schema.graphql; do not edit.

export interface ActivityOut {
  id: string;
  actor: string;
  actorName: string | null;
  action: string;
  subject: string;
  detail: string;
  clientIp: string;
  createdAt: number;
}

export interface AiBriefInput {
  type?: string | null;
  kind?: string | null;
  answers?: unknown | null;
  final?: string | null;
  payment?: AiBriefPaymentInput | null;
}

export interface AiBriefPaymentInput {
  collect?: boolean | null;
  amount?: unknown | null;
  currency?: string | null;
  payerRole?: string | null;
  description?: string | null;
  scheduleNote?: string | null;
}

export interface AiChangeOut {
  op: string;
  path: string;
  was: unknown | null;
  proposed: Array<unknown>;
  why: string;
}

export interface AiDraftInput {
  prompt?: string | null;
  brief?: AiBriefInput | null;
  mode?: string | null;
}

export interface AiEditInput {
  request: string;
  source: unknown;
  mode?: string | null;
  variables?: Array<unknown> | null;
}

export interface AiJobOut {
  id: string;
  kind: string;
  state: string;
  mode: string;
  title: string | null;
  reason: string | null;
  problems: Array<string>;
  source: unknown | null;
  patches: AiPatchesOut | null;
  seats: Array<AiSeatOut>;
  usage: AiUsageOut;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  documentId: string | null;
}

export interface AiPatchesOut {
  notes: Array<string>;
  applied: Array<AiChangeOut>;
  values: Array<AiValueOut>;
}

export interface AiSeatOut {
  role: string;
  label: string;
}

export interface AiUsageOut {
  provider: string | null;
  model: string | null;
  read: number;
  written: number;
  calls: number;
  modelMs: number;
}

export interface AiValueOut {
  name: string;
  value: string;
  why: string;
}

export interface ApiKeyIn {
  name: string;
  mode: string;
  scopes: Array<string>;
  draftOnly?: boolean | null;
  dailyLimit?: number | null;
  perMinute?: number | null;
  allow?: Array<string> | null;
  expiresInDays?: number | null;
}

export interface ApiKeyMade {
  key: ApiKeyOut;
  secret: string;
}

export interface ApiKeyOut {
  id: string;
  workspaceId: string;
  name: string | null;
  mode: Mode;
  hint: string;
  scopes: Array<string>;
  draftOnly: boolean;
  dailyLimit: number | null;
  perMinute: number | null;
  allow: Array<string>;
  expiresAt: number | null;
  revokedAt: number | null;
  createdAt: number;
}

export interface ApiLogLine {
  requestId: string;
  keyId: string | null;
  method: string;
  route: string;
  status: number;
  errorKind: string | null;
  durationUs: number;
  clientIp: string;
  createdAt: number;
}

export interface ApiLogSearch {
  requestId?: string | null;
  keyId?: string | null;
  route?: string | null;
  status?: number | null;
  before?: number | null;
  since?: number | null;
  limit?: number | null;
}

export interface ApprovalOut {
  id: string;
  documentId: string | null;
  templateId: string | null;
  state: string;
  createdAt: string;
  decidedAt: string | null;
  note: string | null;
}

export interface ApprovalPageOut {
  data: Array<ApprovalOut>;
  page: PageInfo;
}

export interface AuditEventOut {
  seq: number;
  time: string;
  event: string;
  description: string;
  person: string | null;
  document: string;
  detail: string;
  hash: string;
}

export interface CheckFieldOut {
  name: string;
  type: string;
  role: string;
  required: boolean;
}

export interface CheckItemOut {
  path: string;
  message: string;
}

export interface CheckOut {
  ok: boolean;
  problems: Array<CheckItemOut>;
  warnings: Array<CheckItemOut>;
  roles: Array<string>;
  fields: Array<CheckFieldOut>;
  questions: Array<string>;
}

export interface CurrencyOut {
  currency: string;
  decimals: number;
  name: string;
}

export interface DeliveryAttemptOut {
  id: string;
  deliveryId: string;
  webhookId: string;
  eventType: string;
  try: number;
  succeeded: boolean;
  responseStatus: number | null;
  result: string;
  durationMs: number;
  createdAt: string;
}

export interface DeliveryAttemptsOut {
  data: Array<DeliveryAttemptOut>;
}

export interface DeliveryOut {
  id: string;
  webhookId: string;
  eventType: string;
  state: string;
  replay: boolean;
  createdAt: string;
}

export interface DocumentCheckInput {
  source: unknown;
  facts?: unknown | null;
  people?: Array<PersonInput> | null;
  variableValues?: unknown | null;
  requireSignature?: boolean | null;
  forTemplate?: boolean | null;
}

export interface DocumentCreateInput {
  title: string;
  source: unknown;
  people: Array<PersonInput>;
  email?: EmailOptionsInput | null;
  metadata?: unknown | null;
  externalId?: string | null;
  facts?: unknown | null;
  variableValues?: unknown | null;
  paper?: string | null;
  profile?: string | null;
  send?: SendOptionsInput | null;
  description?: string | null;
  sendNow?: boolean | null;
  embedded?: Array<string> | null;
}

export interface DocumentOut {
  id: string;
  state: string;
  test: boolean;
  title: string;
  description: string | null;
  externalId: string | null;
  metadata: Record<string, unknown>;
  payments: Array<PaymentOut>;
  people: Array<PersonOut>;
  paper: string;
  pageCount: number | null;
  createdAt: string;
  updatedAt: string;
  sentAt: string | null;
  completedAt: string | null;
  expiresAt: string | null;
  reason: string | null;
  approval: ApprovalOut | null;
  templateId: string | null;
  templateVersion: number | null;
}

export interface DocumentPageOut {
  data: Array<DocumentOut>;
  page: PageInfo;
}

export interface DocumentReviseInput {
  source: unknown;
  facts?: unknown | null;
  variableValues?: unknown | null;
  roleMap?: Record<string, unknown> | null;
}

export interface DocumentSourceOut {
  id: string;
  title: string;
  description: string | null;
  source: unknown;
  people: unknown;
  facts: Record<string, unknown>;
  variableValues: Record<string, unknown>;
  paper: string;
  profile: string;
  send: unknown;
  email: unknown;
  externalId: string | null;
  metadata: Record<string, unknown>;
}

export interface DraftAnswersInput {
  answers: unknown;
  useDefaults?: boolean | null;
  tailor?: boolean | null;
}

export interface DraftInput {
  play: string;
  people: Array<PersonInput>;
  title?: string | null;
  answers?: unknown | null;
  useDefaults?: boolean | null;
  tailor?: boolean | null;
}

export interface DraftOut {
  status: string;
  draftRef: string;
  play: string;
  version: number;
  questions: Array<PlayQuestionOut>;
  answers: Record<string, unknown>;
  expiresAt: string;
  documentId: string | null;
  document: DocumentOut | null;
  tailoring: AiJobOut | null;
  tailoringRefused: string | null;
}

export interface EmailOptionsInput {
  subject?: string | null;
  message?: string | null;
  replyTo?: string | null;
  senderName?: string | null;
  locale?: string | null;
}

export interface EmailOut {
  id: string;
  kind: string;
  to: string;
  subject: string;
  status: string;
  locale: string;
  documentId: string | null;
  personId: string | null;
  test: boolean;
  reason: string | null;
  createdAt: string;
  sentAt: string | null;
  updatedAt: string;
}

export interface EmailPageOut {
  data: Array<EmailOut>;
  page: PageInfo;
}

export interface EmailPreviewOut {
  kind: string;
  locale: string;
  subject: string;
  preview: string;
  body: string;
  html: string;
}

export interface EmailTemplateOut {
  kind: string;
  locale: string;
  subject: string;
  preview: string;
  body: string;
  buttonLabel: string;
  footer: string;
  standard: EmailWordingOut;
  saved: EmailWordingOut | null;
  variables: Array<EmailVariableOut>;
  updatedAt: string | null;
}

export interface EmailTemplatesOut {
  locale: string;
  data: Array<EmailTemplateOut>;
}

export interface EmailVariableOut {
  name: string;
  description: string;
}

export interface EmailWordingInput {
  locale?: string | null;
  subject?: string | null;
  preview?: string | null;
  body?: string | null;
  buttonLabel?: string | null;
  footer?: string | null;
}

export interface EmailWordingOut {
  subject: string | null;
  preview: string | null;
  body: string | null;
  buttonLabel: string | null;
  footer: string | null;
}

export interface EmbedSessionOut {
  url: string;
  expiresAt: string;
  documentId: string;
  seat: string;
  origin: string;
}

export interface FieldAreaOut {
  page: number;
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface FrameSessionOut {
  url: string;
  expiresAt: string;
  frame: string;
  origin: string;
  name: string | null;
}

export interface HeaderOut {
  name: string;
  value: string;
}

export interface InviteIn {
  email: string;
  name: string;
  role: string;
  language?: string | null;
}

export interface MemberOut {
  userId: string;
  email: string;
  name: string;
  role: string;
  joinedAt: number;
}

export interface MeOut {
  person: SignedInPerson;
  role: string;
  workspace: WorkspaceOf;
  workspaces: Array<WorkspaceOf>;
  scopes: Array<string>;
  testMode: boolean;
}

export interface MetadataPair {
  key: string;
  value: string;
}

export type Mode = "test" | "live";

export interface PageInfo {
  nextCursor: string | null;
}

export interface PartyInput {
  seat: string;
  name: string;
  email: string;
  externalId?: string | null;
  metadata?: unknown | null;
  locale?: string | null;
  accessCode?: string | null;
  emailCode?: boolean | null;
}

export interface PasskeyIn {
  name: string;
  clientDataJson: string;
  attestationObject: string;
}

export interface PasskeyOut {
  id: string;
  name: string;
  algorithm: string;
  createdAt: number;
  lastUsedAt: number | null;
}

export interface PaymentOut {
  id: string;
  amount: number;
  currency: string;
  fee: number;
  status: string;
  seat: string;
  description: string | null;
  refunded: number;
  receiptUrl: string | null;
  receiptNumber: string | null;
  createdAt: string;
  paidAt: string | null;
}

export type PaymentReadiness = "connected" | "needs_attention" | "not_connected";

export interface PaymentsConnectOut {
  url: string;
  accountId: string;
}

export interface PaymentsStatusOut {
  status: PaymentReadiness;
  feePercent: number;
  mode: string;
  accountId: string | null;
  due: Array<string>;
  disabledReason: string | null;
  available: boolean;
}

export interface PersonInput {
  name: string;
  email: string;
  role?: string | null;
  action?: string | null;
  order?: number | null;
  externalId?: string | null;
  metadata?: unknown | null;
  locale?: string | null;
  accessCode?: string | null;
  emailCode?: boolean | null;
}

export interface PersonOut {
  id: string;
  seat: string;
  name: string;
  email: string;
  action: string;
  order: number;
  status: string;
  externalId: string | null;
  metadata: Record<string, unknown>;
  invitedAt: string | null;
  openedAt: string | null;
  signedAt: string | null;
  declinedAt: string | null;
  locale: string | null;
  checks: Array<string>;
  embedded: boolean;
}

export interface PlaybookInput {
  name: string;
  title: string;
  plays: Array<string>;
  description?: string | null;
}

export interface PlaybookListOut {
  data: Array<PlaybookOut>;
}

export interface PlaybookOut {
  name: string;
  title: string;
  description: string | null;
  plays: Array<string>;
  createdAt: string;
  updatedAt: string;
}

export interface PlayConditionOut {
  question: string;
  values: Array<string>;
}

export interface PlayDuplicateInput {
  as: string;
}

export interface PlayListOut {
  data: Array<PlaySummaryOut>;
}

export interface PlayOptionOut {
  value: string;
  label: string;
}

export interface PlayOut {
  name: string;
  builtIn: boolean;
  archived: boolean;
  published: number | null;
  latest: number;
  versions: Array<PlayVersionOut>;
  version: number;
  title: string;
  description: string;
  kind: string;
  category: string;
  language: string;
  seats: Array<PlaySeatOut>;
  questions: Array<PlayQuestionOut>;
  source: string;
}

export interface PlayProblemOut {
  key: string;
  line: number;
  column: number;
  message: string;
  hint: string;
}

export interface PlayPublishInput {
  version: number;
}

export interface PlayQuestionOut {
  id: string;
  ask: string;
  options: Array<PlayOptionOut>;
  default: string | null;
  when: Array<PlayConditionOut>;
}

export interface PlaySeatOut {
  role: string;
  label: string;
  order: number | null;
}

export interface PlaySourceInput {
  source: string;
}

export interface PlaySummaryOut {
  name: string;
  title: string;
  description: string;
  kind: string;
  category: string;
  language: string;
  builtIn: boolean;
  version: number;
}

export interface PlayTestOut {
  ok: boolean;
  problems: Array<PlayProblemOut>;
  warnings: Array<PlayProblemOut>;
  name: string;
  title: string;
  seats: Array<PlaySeatOut>;
  rounds: Array<Array<PlayQuestionOut>>;
  answers: Record<string, unknown>;
  preview: unknown | null;
}

export interface PlayVersionOut {
  version: number;
  title: string;
  createdAt: string;
  createdBy: string;
}

export interface PreviewFieldOut {
  name: string;
  type: string;
  role: string;
  page: number;
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface PreviewPageOut {
  width: number;
  height: number;
  image: string | null;
}

export interface RelayItemOut {
  id: string;
  webhookId: string;
  eventType: string;
  createdAt: string;
  headers: Array<HeaderOut>;
  body: string;
}

export interface RelayOut {
  data: Array<RelayItemOut>;
  nextAfter: string | null;
}

export interface ReportDayOut {
  date: string;
  sent: number;
  completed: number;
}

export interface ReportOut {
  from: string;
  to: string;
  timeZone: string;
  team: string | null;
  sent: number;
  completed: number;
  days: Array<ReportDayOut>;
}

export interface SendOptionsInput {
  replyTo?: string | null;
  senderName?: string | null;
  subject?: string | null;
  message?: string | null;
  expiryDays?: number | null;
  reminderDays?: Array<number> | null;
  signingOrder?: boolean | null;
  language?: string | null;
  internalNote?: string | null;
  requireDeclineReason?: boolean | null;
}

export interface SessionOut {
  id: string;
  workspaceId: string;
  createdAt: number;
  lastSeenAt: number;
  clientIp: string;
  userAgent: string;
  current: boolean;
}

export interface SignedInPerson {
  id: string;
  email: string;
  name: string;
  language: string;
}

export interface SuppressionOut {
  address: string;
  reason: string;
  emailId: string | null;
  createdAt: string;
}

export interface SuppressionPageOut {
  data: Array<SuppressionOut>;
  page: PageInfo;
}

export interface TeamMemberOut {
  name: string;
  email: string;
  role: string;
}

export interface TeamOut {
  id: string;
  name: string;
  members: Array<TeamMemberOut>;
}

export interface TeamsOut {
  teams: Array<TeamOut>;
}

export interface TemplateDefaults {
  description: string | null;
  clientDescription: string | null;
  message: string | null;
  sendOptions: unknown | null;
}

export interface TemplateDefaultsInput {
  description?: string | null;
  clientDescription?: string | null;
  message?: string | null;
  send?: SendOptionsInput | null;
}

export interface TemplateDocumentInput {
  people: Array<PersonInput>;
  email?: EmailOptionsInput | null;
  metadata?: unknown | null;
  externalId?: string | null;
  title?: string | null;
  variableValues?: unknown | null;
  facts?: unknown | null;
  send?: SendOptionsInput | null;
  sendNow?: boolean | null;
  embedded?: Array<string> | null;
}

export interface TemplateFieldOut {
  name: string;
  type: string;
  role: string;
  required: boolean;
  areas: Array<FieldAreaOut>;
}

export interface TemplateFileInput {
  name: string;
  fileName: string;
  file: string;
  placeFields?: boolean | null;
  metadata?: unknown | null;
  externalId?: string | null;
}

export interface TemplateHtmlInput {
  name: string;
  html: string;
  paper?: string | null;
  metadata?: unknown | null;
  externalId?: string | null;
}

export interface TemplateOut {
  id: string;
  kind: string;
  name: string;
  externalId: string | null;
  metadata: Record<string, unknown>;
  version: number;
  approved: boolean;
  seats: Array<string>;
  questions: Array<string>;
  fields: Array<TemplateFieldOut>;
  paper: string;
  profile: string;
  pages: number | null;
  warnings: Array<string>;
  defaults: TemplateDefaults;
  createdAt: string;
  updatedAt: string;
}

export interface TemplatePageOut {
  data: Array<TemplateOut>;
  page: PageInfo;
}

export interface TemplatePreviewInput {
  source: unknown;
  profile?: string | null;
  paper?: string | null;
}

export interface TemplatePreviewOut {
  pages: Array<PreviewPageOut>;
  fields: Array<PreviewFieldOut>;
}

export interface TemplateSendInput {
  templateId: string;
  parties: Array<PartyInput>;
  email?: EmailOptionsInput | null;
  metadata?: unknown | null;
  externalId?: string | null;
  title?: string | null;
  message?: string | null;
  subject?: string | null;
  language?: string | null;
  expiryDays?: number | null;
  embedded?: Array<string> | null;
}

export interface TemplateSourceInput {
  name: string;
  source: unknown;
  profile?: string | null;
  paper?: string | null;
  metadata?: unknown | null;
  externalId?: string | null;
}

export interface TemplateSourceOut {
  id: string;
  name: string;
  kind: string;
  version: number;
  source: unknown;
  paper: string;
  profile: string;
}

export interface TemplateVersionInput {
  version: number;
  source: unknown;
  name?: string | null;
  profile?: string | null;
  paper?: string | null;
}

export interface TopicOut {
  name: string;
  description: string;
}

export interface TopicsOut {
  topics: Array<TopicOut>;
}

export interface UsageCounterOut {
  used: number;
  limit: number | null;
  periodStart: string;
  resetsAt: string;
}

export interface UsageOut {
  plan: string;
  documents: UsageCounterOut;
  emails: UsageCounterOut;
  testEmails: UsageCounterOut;
}

export interface WebhookCreateInput {
  eventTypes: Array<string>;
  url?: string | null;
  relay?: boolean | null;
  name?: string | null;
}

export interface WebhookOut {
  id: string;
  url: string | null;
  relay: boolean;
  name: string | null;
  eventTypes: Array<string>;
  state: string;
  disabledReason: string | null;
  test: boolean;
  createdAt: string;
  secret: string | null;
  previousSecretExpiresAt: string | null;
}

export interface WebhookPageOut {
  data: Array<WebhookOut>;
  page: PageInfo;
}

export interface WebhookTestOut {
  delivered: boolean;
  relayed: boolean;
  responseStatus: number | null;
  result: string;
  durationMs: number;
  webhookId: string;
}

export interface WizardOptionOut {
  value: string;
  label: string;
}

export interface WizardOut {
  locale: string;
  questions: Array<WizardQuestionOut>;
  currencies: Array<CurrencyOut>;
}

export interface WizardQuestionOut {
  key: string;
  ask: string;
  help: string | null;
  answer: string;
  required: boolean;
  options: Array<WizardOptionOut>;
  when: string | null;
}

export interface WorkspaceOf {
  id: string;
  name: string;
  role: string;
}

export interface WorkspaceSettings {
  id: string;
  name: string;
  plan: string;
  timeZone: string;
  language: string | null;
  senderName: string | null;
  senderEmail: string | null;
  replyTo: string | null;
  testMode: boolean;
  embedding: boolean;
  embedOrigins: Array<string>;
  aiDrafting: boolean;
  aiDailyLimit: number;
  createdAt: number;
}

export interface WorkspaceSettingsInput {
  name?: string | null;
  timeZone?: string | null;
  language?: string | null;
  senderName?: string | null;
  senderEmail?: string | null;
  replyTo?: string | null;
  testMode?: boolean | null;
  embedding?: boolean | null;
  embedOrigins?: Array<string> | null;
  aiDrafting?: boolean | null;
  aiDailyLimit?: number | null;
}
