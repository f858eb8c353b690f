import { Controller, Get, Param, Post, Req, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import {
  ApiConsumes,
  ApiForbiddenResponse,
  ApiGoneResponse,
  ApiNotFoundResponse,
  ApiOperation,
  ApiParam,
  ApiProduces,
  ApiTags,
} from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  ApiHtmlPageOk,
  HTML_PAGE_OR_ERROR,
  type RequestWindow,
  sendPage,
  WriteWindow,
} from '@app/shared';
import { ConfirmConsentCommand } from '../commands/confirm-consent/confirm-consent.command';
import { CONFIRM_ROUTE } from '../domain/confirmation-paths';
import { GetConfirmationQuestionQuery } from '../queries/get-confirmation-question/get-confirmation-question.query';

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
  content: HTML_PAGE_OR_ERROR,
})
@ApiGoneResponse({
  description:
    'The link expired, was already used, or its request was withdrawn: a page, nothing recorded',
  content: HTML_PAGE_OR_ERROR,
})
@ApiNotFoundResponse({
  description: 'The request no longer exists: a page',
  content: HTML_PAGE_OR_ERROR,
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
  @ApiHtmlPageOk('The page')
  async page(
    @Param('token') token: string,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const action = request.url.split('?')[0];
    sendPage(reply, await this.queries.execute(new GetConfirmationQuestionQuery(token, action)));
  }

  @Post(CONFIRM_ROUTE)
  @ApiOperation({
    summary: 'Confirm (the button of the confirmation page)',
    description:
      "Queues the grant as an ordinary write (applied by the worker in the profile's write order), recorded with the confirmation time, the link id, the request's IP address and User-Agent as evidence. A link confirms once.",
  })
  @ApiConsumes('application/x-www-form-urlencoded')
  @ApiHtmlPageOk('Confirmed: a page')
  async confirm(
    @Param('token') token: string,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
    @WriteWindow() window: RequestWindow | null,
  ): Promise<void> {
    const userAgent = request.headers['user-agent'];
    sendPage(
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
