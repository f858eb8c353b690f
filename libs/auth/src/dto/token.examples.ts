import type { BodyExamples } from '@app/shared';

/** The form fields of a token request, as the examples send them. */
interface TokenRequestFields {
  grant_type: string;
  scope: string;
  client_id?: string;
  client_secret?: string;
}

/*
 * Request-body examples of POST /oauth2/v1/token (the OpenAPI document's `examples`;
 * test/openapi-examples.e2e-spec.ts sends each with a tenant's own credentials). The
 * client id and secret are made up: `npm run admin -- create-client` prints real ones.
 */
export const TOKEN_REQUEST_EXAMPLES: BodyExamples<TokenRequestFields> = {
  credentialsInForm: {
    summary: "User alice of the client demo (the README's first requests), credentials in the form",
    value: {
      grant_type: 'client_credentials',
      scope: 'demo/alice',
      client_id: 'Xcml1EmxEk1yNOXEtaSvUzWVD6tgrnHc718ASYjpQXd6pmh3',
      client_secret: 'EvnnfLv75RLx0kvR9Niekk1BcrDWey2vFwD6QoTNXt8aQ3pSXge9XAt9eatKBQ7q',
    },
  },
  credentialsInHeader: {
    summary:
      'The same with Authorization: Basic base64(client_id:client_secret) instead of the credential fields',
    value: { grant_type: 'client_credentials', scope: 'demo/alice' },
  },
};
