import { Controller, Get, Param, Post, Req, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import {
  ApiBody,
  ApiConsumes,
  ApiForbiddenResponse,
  ApiGoneResponse,
  ApiHeader,
  ApiOperation,
  ApiParam,
  ApiProduces,
  ApiResponse,
  ApiTags,
} from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  ApiHtmlPageOk,
  ApiTextQuery,
  HTML_PAGE,
  HTML_PAGE_OR_ERROR,
  type RequestWindow,
  sendPage,
  WaitsForWorker,
  WriteWindow,
} from '@app/shared';
import type { CentreForm } from '../domain/centre-changes';
import { FIELD, needsGpcOptOut } from '../domain/centre-changes';
import type { CentrePage } from '../domain/centre-page';
import { hasGpcSignal } from '../domain/gpc';
import { CENTRE_ROUTE, UNSUBSCRIBE_ROUTE } from '../domain/centre-paths';
import type { LinkClaims } from '../domain/link-token';
import { SaveCentreChoicesCommand } from '../commands/save-centre-choices/save-centre-choices.command';
import { GetCentrePageQuery } from '../queries/get-centre-page/get-centre-page.query';
import { CentreLinks } from '../services/centre-links.service';
import { PageLinkSecurity, UnsubscribeLinkSecurity } from './link-security';
import {
  type GpcOutcome,
  type Notice,
  renderCentrePage,
  renderGpcConfirmation,
  renderRefusedLink,
  renderUnsubscribed,
} from '../views/centre-page.view';

const NOTICES = new Set<Notice>([
  'saved',
  'awaiting-confirmation',
  'pending',
  'unsubscribed',
  'unchanged',
]);
const CLIENT_PARAM = {
  name: 'clientId',
  description: "The client (tenant) id the link was made for (it is part of the link's signature)",
  schema: { type: 'string', minLength: 1, maxLength: 64 },
  example: 'acme',
};

/** The link's query parameters, documented (they are the link's format). */
const LinkQuery = (): MethodDecorator => (target, key, descriptor) => {
  ApiTextQuery('p', { required: true, description: 'The profile id', example: '1042' })(
    target,
    key,
    descriptor,
  );
  ApiTextQuery('e', {
    required: true,
    description: 'When the link expires, in Unix seconds',
    example: '1767225600',
  })(target, key, descriptor);
  ApiTextQuery('s', {
    required: true,
    description:
      "HMAC-SHA-256 with the client's key over client, profile, expiry and purpose, base64url",
    example: 'q3v7m0Hc1d9F4b8xk2YtZr5w6uE0pLaNsJhGiQoVeC4',
  })(target, key, descriptor);
};

/** The Global Privacy Control request header, documented (browsers send it themselves). */
const GpcHeader = (): MethodDecorator =>
  ApiHeader({
    name: 'Sec-GPC',
    required: false,
    description:
      'Global Privacy Control (docs/preference-centre.md, "Global Privacy Control"): 1 when the person\'s browser asks not to have their information sold or shared; any other value is no signal',
    schema: { type: 'string', example: '1' },
  });

/** The `u` query parameter of an unsubscribe link, documented (part of its signature). */
const UnsubscribeScopeQuery = (): MethodDecorator =>
  ApiTextQuery('u', {
    required: true,
    description:
      'What the link unsubscribes from: all, <ProgramId> or <ProgramId>:<ChannelId> (signed)',
    example: 'all',
  });

type RawRequest = FastifyRequest & { query: Record<string, unknown>; body?: unknown };

/** The request's path and its link parameters, without the notice (the form's action). */
function selfUrl(request: FastifyRequest, claims: LinkClaims, extra: Record<string, string> = {}) {
  const path = request.url.split('?')[0];
  const query = new URLSearchParams(request.query as Record<string, string>);
  query.delete('notice');
  for (const [name, value] of Object.entries(extra)) query.set(name, value);
  void claims;
  return `${path}?${query.toString()}`;
}

/** The page with the one button that posts List-Unsubscribe=One-Click to the same link. */
function sendUnsubscribeForm(
  reply: FastifyReply,
  request: FastifyRequest,
  claims: LinkClaims,
  status = 200,
): void {
  const page = renderUnsubscribed('en-US', { done: false, action: selfUrl(request, claims) });
  sendPage(reply, { ...page, status });
}

function formOf(body: unknown): CentreForm {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return {};
  return body as CentreForm;
}

/**
 * The person's side of the preference centre (docs/preference-centre.md): HTML pages under
 * the client, without API credentials — the link's signature is the credential. A refused
 * link (altered: 403; expired: 410) gets a page that shows nothing of the profile.
 */
@ApiTags('Preference centre')
@ApiParam(CLIENT_PARAM)
@ApiProduces('text/html')
@ApiForbiddenResponse({
  description:
    'The link is not valid (altered, incomplete, or not made by this service): an HTML page with no profile data ({"Message"} when REQUIRE_HTTPS refuses plain HTTP first)',
  content: HTML_PAGE_OR_ERROR,
})
@ApiGoneResponse({
  description: 'The link has expired, or the profile is gone: an HTML page with no profile data',
  content: HTML_PAGE,
})
@Controller(':clientId')
export class CentrePageController {
  constructor(
    private readonly links: CentreLinks,
    private readonly queries: QueryBus,
    private readonly commands: CommandBus,
  ) {}

  @Get(CENTRE_ROUTE)
  @WaitsForWorker()
  @ApiOperation({
    summary: 'The preference centre page of a profile (HTML, for the person)',
    description:
      "Public: no API credential, the link's signature (s) is checked instead (constant-time), then its expiry. Shows the programs, filters, channels and frequencies that apply to the profile (the channels of its active contact elements, Solicit at profile level), named in the profile's DefaultLocale (then en-US, then the configured name), the current choices, and the consents the profile holds with the consent type's text and version. notice=saved|awaiting-confirmation|pending|unsubscribed|unchanged shows the outcome of a save (PRG). A consent whose grant, or a program's choice whose opt-in, waits for the person's confirmation (double opt-in) is shown unticked with the (masked) address the confirmation link went to. Sent with a Content-Security-Policy, no-store and no-referrer. With Sec-GPC: 1 (Global Privacy Control) and programs the client marked SaleOrShare, the page says the signal was received and, the first time (or for what is newly marked), opts the person out of those programs as an ordinary merge write (SourceId GlobalPrivacyControl, attribute $GlobalPrivacyControl OptOut), waited for up to SYNC_WRITE_TIMEOUT_MS; a later view with the signal writes nothing.",
  })
  @LinkQuery()
  @PageLinkSecurity()
  @ApiTextQuery('notice', {
    description:
      'The outcome of the previous save to announce: saved, awaiting-confirmation (saved; a consent granted or a program opted in to waits for the confirmation link sent to its email address), pending, unsubscribed or unchanged',
    example: 'saved',
  })
  @GpcHeader()
  @ApiHtmlPageOk('The page')
  async page(
    @Param('clientId') clientId: string,
    @Req() request: RawRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const claims = await this.claimsOf(clientId, request, reply, 'page');
    if (!claims) return;
    const { profileId } = claims;
    let page = await this.pageOf(clientId, profileId);
    if (!page) return sendPage(reply, renderRefusedLink('gone'));
    let gpc: GpcOutcome | undefined;
    if (hasGpcSignal(request.headers)) {
      gpc = 'unchanged';
      if (page.programs.some((program) => program.choices.some(needsGpcOptOut))) {
        const outcome = await this.commands.execute(
          // A page view (GET) has no commit window (only write requests get one).
          new SaveCentreChoicesCommand(clientId, profileId, { kind: 'gpc' }, null),
        );
        if (outcome.status === 'gone') return sendPage(reply, renderRefusedLink('gone'));
        gpc =
          outcome.status === 'confirm'
            ? 'unchanged'
            : outcome.status === 'awaiting-confirmation'
              ? 'saved'
              : outcome.status;
        page = await this.pageOf(clientId, profileId);
        if (!page) return sendPage(reply, renderRefusedLink('gone'));
      }
    }
    const notice = request.query.notice;
    sendPage(
      reply,
      renderCentrePage(page, selfUrl(request, claims), {
        ...(typeof notice === 'string' && NOTICES.has(notice as Notice)
          ? { notice: notice as Notice }
          : {}),
        ...(gpc ? { gpc } : {}),
      }),
    );
  }

  private pageOf(clientId: string, profileId: number): Promise<CentrePage | null> {
    return this.queries.execute(new GetCentrePageQuery(clientId, profileId));
  }

  /** The claims of the request's link, or undefined once the refused link's page is sent. */
  private async claimsOf(
    clientId: string,
    request: RawRequest,
    reply: FastifyReply,
    purpose: 'page' | 'unsubscribe',
  ): Promise<LinkClaims | undefined> {
    const verified = await this.links.verify(clientId, request.query, purpose);
    if (!('refused' in verified)) return verified.claims;
    sendPage(reply, renderRefusedLink(verified.refused));
    return undefined;
  }

  @Post(CENTRE_ROUTE)
  @WaitsForWorker()
  @ApiOperation({
    summary: "Save the person's choices from the preference centre page",
    description:
      "The page's form (application/x-www-form-urlencoded), behind the same signed link. action=save: every choice the form showed (shown=<id>) becomes an opt-in when in.<id> is sent and an opt-out when not, freq.<id> its frequency; every consent shown (consentShown=<id>) Granted when consent.<id> is sent, Revoked when not; only what differs from the profile is written. action=unsubscribe-all: an opt-out of every choice the page shows. The change is an ordinary merge write (checked as POST by id is, queued, applied by the worker, in the history under the user PreferenceCentre), waited for up to SYNC_WRITE_TIMEOUT_MS; then 303 See Other back to the page with notice=saved (or pending, unchanged, unsubscribed; awaiting-confirmation when a consent it granted is of a type requiring confirmation on an email address, or an opt-in it asked for is on an Email filter requiring confirmation: the grant or opt-in waits for the link sent to that address, and ticking it again while it waits writes nothing, docs/double-opt-in.md). A change the checks refuse answers 400 with the page and the reasons. With Sec-GPC: 1, an opt-in of a program marked SaleOrShare is not written at once: 200 with a confirmation page that posts the form again with gpcConfirm=1 (opt in anyway: recorded with the attribute $GlobalPrivacyControl OptInConfirmed) or gpcConfirm=0 (save the other changes only).",
  })
  @LinkQuery()
  @PageLinkSecurity()
  @ApiConsumes('application/x-www-form-urlencoded')
  @ApiBody({
    description: "The page's form fields",
    schema: {
      type: 'object',
      additionalProperties: {
        oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }],
      },
      properties: {
        action: {
          type: 'string',
          enum: ['save', 'unsubscribe-all'],
          description: 'What the form does',
        },
        gpcConfirm: {
          type: 'string',
          enum: ['1', '0'],
          description:
            'The answer of the confirmation page (with Sec-GPC: 1): 1 opts in to the programs marked SaleOrShare anyway, 0 saves the other changes only',
        },
      },
      example: { action: 'save', shown: '9f2c1a0b3d4e5f60', 'in.9f2c1a0b3d4e5f60': '1' },
    },
  })
  @GpcHeader()
  @ApiResponse({ status: 303, description: 'Saved: back to the page with the notice (PRG)' })
  @ApiHtmlPageOk(
    'With Sec-GPC: 1, the form opts in to a program marked SaleOrShare without gpcConfirm: the confirmation page; nothing was written',
  )
  @ApiResponse({
    status: 400,
    description:
      'The change was refused: the page with the reasons (a request Fastify refuses before the route, e.g. a path parameter too long, answers {"Message"})',
    content: HTML_PAGE_OR_ERROR,
  })
  async save(
    @Param('clientId') clientId: string,
    @Req() request: RawRequest,
    @Res() reply: FastifyReply,
    @WriteWindow() window: RequestWindow | null,
  ): Promise<void> {
    const claims = await this.claimsOf(clientId, request, reply, 'page');
    if (!claims) return;
    const form = formOf(request.body);
    const unsubscribe = form[FIELD.action] === 'unsubscribe-all';
    const gpc = hasGpcSignal(request.headers);
    const outcome = await this.commands.execute(
      new SaveCentreChoicesCommand(
        clientId,
        claims.profileId,
        unsubscribe ? { kind: 'unsubscribe', scope: { kind: 'all' } } : { kind: 'form', form, gpc },
        window,
      ),
    );
    if (outcome.status === 'gone') return sendPage(reply, renderRefusedLink('gone'));
    if (outcome.status === 'confirm') {
      const page = await this.pageOf(clientId, claims.profileId);
      if (!page) return sendPage(reply, renderRefusedLink('gone'));
      const action = selfUrl(request, claims);
      return sendPage(reply, renderGpcConfirmation(page, action, action, form, outcome.choices));
    }
    if (outcome.status === 'refused') {
      const page = await this.pageOf(clientId, claims.profileId);
      if (!page) return sendPage(reply, renderRefusedLink('gone'));
      return sendPage(
        reply,
        renderCentrePage(page, selfUrl(request, claims), {
          errors: outcome.problems,
          status: 400,
          ...(gpc ? { gpc: 'unchanged' as const } : {}),
        }),
      );
    }
    const notice: Notice =
      unsubscribe && outcome.status !== 'pending' ? 'unsubscribed' : outcome.status;
    void reply
      .status(303)
      .header('location', selfUrl(request, claims, { notice }))
      .header('cache-control', 'no-store')
      .send();
  }

  @Get(UNSUBSCRIBE_ROUTE)
  @ApiOperation({
    summary: 'The one-click unsubscribe link opened in a browser (HTML)',
    description:
      'Changes nothing (mail scanners open links): answers a page with one button that posts List-Unsubscribe=One-Click to the same URL.',
  })
  @LinkQuery()
  @UnsubscribeLinkSecurity()
  @UnsubscribeScopeQuery()
  @ApiHtmlPageOk('The confirmation page')
  async confirmUnsubscribe(
    @Param('clientId') clientId: string,
    @Req() request: RawRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const claims = await this.claimsOf(clientId, request, reply, 'unsubscribe');
    if (claims) sendUnsubscribeForm(reply, request, claims);
  }

  @Post(UNSUBSCRIBE_ROUTE)
  @WaitsForWorker()
  @ApiOperation({
    summary: 'One-click unsubscribe (RFC 8058)',
    description:
      "What a mail client posts to the List-Unsubscribe URL when the email also has List-Unsubscribe-Post: List-Unsubscribe=One-Click. Opts the person out of the link's scope (u: every program the page shows, a program, or a program on one channel) on every contact element, as an ordinary merge write under the user PreferenceCentre, and answers 200 with a short HTML page, never a redirect. Idempotent: what is already an opt-out is not written again. A body without List-Unsubscribe=One-Click is a 400 page.",
  })
  @LinkQuery()
  @UnsubscribeLinkSecurity()
  @UnsubscribeScopeQuery()
  @ApiConsumes('application/x-www-form-urlencoded')
  @ApiBody({
    description: 'RFC 8058: List-Unsubscribe=One-Click',
    schema: {
      type: 'object',
      required: ['List-Unsubscribe'],
      properties: {
        'List-Unsubscribe': {
          type: 'string',
          enum: ['One-Click'],
          description: 'Always One-Click',
        },
      },
      example: { 'List-Unsubscribe': 'One-Click' },
    },
  })
  @ApiHtmlPageOk('Unsubscribed (or nothing was left to unsubscribe from)')
  @ApiResponse({
    status: 400,
    description:
      'The body is not List-Unsubscribe=One-Click: an HTML page, nothing changed (a request Fastify refuses before the route answers {"Message"})',
    content: HTML_PAGE_OR_ERROR,
  })
  async unsubscribe(
    @Param('clientId') clientId: string,
    @Req() request: RawRequest,
    @Res() reply: FastifyReply,
    @WriteWindow() window: RequestWindow | null,
  ): Promise<void> {
    const claims = await this.claimsOf(clientId, request, reply, 'unsubscribe');
    if (!claims) return;
    const { purpose, profileId } = claims;
    if (formOf(request.body)['List-Unsubscribe'] !== 'One-Click') {
      return sendUnsubscribeForm(reply, request, claims, 400);
    }
    const outcome = await this.commands.execute(
      new SaveCentreChoicesCommand(
        clientId,
        profileId,
        {
          kind: 'unsubscribe',
          scope: purpose.kind === 'unsubscribe' ? purpose.scope : { kind: 'all' },
        },
        window,
      ),
    );
    if (outcome.status === 'gone') return sendPage(reply, renderRefusedLink('gone'));
    if (outcome.status === 'refused') return sendUnsubscribeForm(reply, request, claims, 400);
    sendPage(
      reply,
      renderUnsubscribed('en-US', { done: true, pending: outcome.status === 'pending' }),
    );
  }
}
