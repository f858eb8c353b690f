import { ApiOkResponse, getSchemaPath } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ErrorDto } from './api-docs.decorators';

/*
 * What the routes answering HTML pages share (the preference centre, the confirmation
 * links, the reporting page): how their answers are documented and sent.
 */

/** OpenAPI content of an HTML page. */
export const HTML_PAGE = { 'text/html': { schema: { type: 'string' } } };

/** OpenAPI content of a refusal: a page, or {"Message"} when Fastify refuses the request first. */
export const HTML_PAGE_OR_ERROR = {
  ...HTML_PAGE,
  'application/json': { schema: { $ref: getSchemaPath(ErrorDto) } },
};

/** The 200 of a page route: the page `description` names. */
export const ApiHtmlPageOk = (description: string): MethodDecorator & ClassDecorator =>
  ApiOkResponse({ description, content: HTML_PAGE });

/** A page as a view renders it: status, headers (its CSP among them) and the HTML. */
export interface HtmlPageAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Sends a rendered page as it is. */
export function sendPage(reply: FastifyReply, page: HtmlPageAnswer): void {
  void reply.status(page.status).headers(page.headers).send(page.body);
}
