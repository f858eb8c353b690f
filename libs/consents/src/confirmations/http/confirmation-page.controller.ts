import { Controller, Get, Param, Post, Req, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import {
  ApiConsumes,
  ApiForbiddenResponse,
  ApiGoneResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiProduces,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ErrorDto, type RequestWindow, WriteWindow } from '@app/shared';
import { ConfirmConsentCommand } from '../commands/confirm-consent/confirm-consent.command';
import { CONFIRM_ROUTE } from '../domain/confirmation-paths';
import { GetConfirmationQuestionQuery } from '../queries/get-confirmation-question/get-confirmation-question.query';
import type { ConfirmationPage } from '../views/confirmation-page.view';

const HTML = { 'text/html': { schema: { type: 'string' } } };
/** A refusal is a page, or {"Message"} when Fastify refuses the request first. */
const HTML_OR_ERROR = {
  ...HTML,
  'application/json': { schema: { $ref: getSchemaPath(ErrorDto) } },
};

function send(reply: FastifyReply, page: ConfirmationPage): void {
  void reply.status(page.status).headers(page.headers).send(page.body);
}

/**
 * The person's side of double opt-in (docs/double-opt-in.md): the link from the message.
 * Public: the token's signature is the credential. A GET only shows the question and one
 * button (mail scanners that prefetch links confirm nothing); the POST confirms.
 */
@ApiTags('Double opt-in')
@ApiParam({
  name: 'token',
  description:
    'The link token from the message: client, profile, confirmation, expiry and an HMAC-SHA-256 signature with the deployment key',
  schema: { type: 'string', minLength: 1, maxLength: 400 },
})
@ApiProduces('text/html')
@ApiForbiddenResponse({
  description: 'The link is altered or incomplete: a page, nothing recorded',
  content: HTML_OR_ERROR,
})
@ApiGoneResponse({
  description:
    'The link expired, was already used, or its request was withdrawn: a page, nothing recorded',
  content: HTML_OR_ERROR,
})
@ApiNotFoundResponse({
  description: 'The request no longer exists: a page',
  content: HTML_OR_ERROR,
})
@Controller()
export class ConfirmationPageController {
  constructor(
    private readonly queries: QueryBus,
    private readonly commands: CommandBus,
  ) {}

  @Get(CONFIRM_ROUTE)
  @ApiOperation({
    summary: 'The confirmation page of a link (HTML, for the person)',
    description:
      'Shows what is asked (the consent and its text, the address) and one button that posts to the same URL. Records nothing.',
  })
  @ApiOkResponse({ description: 'The page', content: HTML })
  async page(
    @Param('token') token: string,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const action = request.url.split('?')[0];
    send(reply, await this.queries.execute(new GetConfirmationQuestionQuery(token, action)));
  }

  @Post(CONFIRM_ROUTE)
  @ApiOperation({
    summary: 'Confirm (the button of the confirmation page)',
    description:
      "Queues the grant as an ordinary write (applied by the worker in the profile's write order), recorded with the confirmation time, the link id, the request's IP address and User-Agent as evidence. A link confirms once.",
  })
  @ApiConsumes('application/x-www-form-urlencoded')
  @ApiOkResponse({ description: 'Confirmed: a page', content: HTML })
  async confirm(
    @Param('token') token: string,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
    @WriteWindow() window: RequestWindow | null,
  ): Promise<void> {
    const userAgent = request.headers['user-agent'];
    send(
      reply,
      await this.commands.execute(
        new ConfirmConsentCommand(
          token,
          { ipAddress: request.ip, ...(userAgent ? { userAgent } : {}) },
          window,
        ),
      ),
    );
  }
}
