/**
 * Texts an agent run puts on a card: each secret sample carries one secret of a well-known shape
 * (fake values in the providers' real formats; AWS's are AWS's own documented examples), each
 * ordinary sample is text that looks technical but holds nothing secret and must stay as it is.
 */

/** A text that holds `secret`; the card must never show `secret`. */
export interface SecretSample {
  readonly shape: string;
  readonly text: string;
  readonly secret: string;
}

const jwt =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkFkYSIsImlhdCI6MTcwMDAwMDAwMH0.qA3b0dM7Hk2oQz7sX9yVt4rW1eP8uN6cL5jF0gK2iS4';
const rsaBody = 'MIIEowIBAAKCAQEAyK9n2vQ4wYt7Lr3pXb8sV1mZ0cH6jD2fN5qE9uR4tW7yA3kB';

export const SECRET_SAMPLES: readonly SecretSample[] = [
  { shape: 'aws access key id', text: 'aws configure set aws_access_key_id AKIAIOSFODNN7EXAMPLE', secret: 'AKIAIOSFODNN7EXAMPLE' },
  {
    shape: 'aws secret (credentials file)',
    text: '[default]\naws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\nregion = us-east-1',
    secret: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  },
  { shape: 'aws secret (env)', text: 'export AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', secret: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY' },
  { shape: 'gcp api key', text: 'curl "https://maps.googleapis.com/maps/api/geocode/json?address=x&key=AIzaSyD4kQ9v2Lr7Xb1mN8pW3sT6yU0cE5hJ2fG"', secret: 'AIzaSyD4kQ9v2Lr7Xb1mN8pW3sT6yU0cE5hJ2fG' },
  { shape: 'gcp oauth token', text: 'token: ya29.a0AfB_byC9xK2mL7pQ4rS1tU8vW3yZ6bD0eF5gH', secret: 'ya29.a0AfB_byC9xK2mL7pQ4rS1tU8vW3yZ6bD0eF5gH' },
  {
    shape: 'gcp service account private key',
    text: `{"type": "service_account", "private_key_id": "3f1c2b7a9e8d4c6b5a0f1e2d3c4b5a6978695a4b", "private_key": "-----BEGIN PRIVATE KEY-----\\n${rsaBody}\\n-----END PRIVATE KEY-----\\n"}`,
    secret: rsaBody,
  },
  {
    shape: 'azure storage connection string',
    text: 'DefaultEndpointsProtocol=https;AccountName=acmelogs;AccountKey=q8Zt3vW1xY5bC7dE9fG2hJ4kL6mN8pQ0rS3tU5vW7xY9zA1bC3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5b==;EndpointSuffix=core.windows.net',
    secret: 'q8Zt3vW1xY5bC7dE9fG2hJ4kL6mN8pQ0rS3tU5vW7xY9zA1bC3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5b',
  },
  { shape: 'azure client secret', text: 'az login --service-principal -u app -p Xy28Q~aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456 --tenant t', secret: 'Xy28Q~aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456' },
  { shape: 'openai key', text: 'export OPENAI_API_KEY=sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zAb7cDe0fGh3iJk6', secret: 'sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zAb7cDe0fGh3iJk6' },
  { shape: 'openai key (legacy)', text: 'Using key sk-4fR8tY2uI6oP0aS3dF7gH1jK5lZ9xC2vB6nM0qW4eR8t for the call', secret: 'sk-4fR8tY2uI6oP0aS3dF7gH1jK5lZ9xC2vB6nM0qW4eR8t' },
  { shape: 'anthropic key', text: 'client = Anthropic(api_key="sk-ant-api03-Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0Fe9Dc8Ba7-AbCd")', secret: 'sk-ant-api03-Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0Fe9Dc8Ba7-AbCd' },
  { shape: 'github classic token', text: 'git clone https://ghp_R4nD0mT0k3nV4lu3F0rT3st1ngPurp0s3s12@github.com/acme/app.git', secret: 'ghp_R4nD0mT0k3nV4lu3F0rT3st1ngPurp0s3s12' },
  {
    shape: 'github fine-grained token',
    text: 'gh auth login --with-token <<< github_pat_11ABCDEFG0aBcDeFgHiJkL_mNoPqRsTuVwXyZ0123456789aBcDeFgHiJkLmNoPqRsTuVw',
    secret: 'github_pat_11ABCDEFG0aBcDeFgHiJkL_mNoPqRsTuVwXyZ0123456789aBcDeFgHiJkLmNoPqRsTuVw',
  },
  { shape: 'slack bot token', text: 'SLACK_BOT=xoxb-2048193746-5820194736251-Qw3rTy7uI1oP5aS9dF3gH7jK', secret: 'xoxb-2048193746-5820194736251-Qw3rTy7uI1oP5aS9dF3gH7jK' },
  { shape: 'slack user token', text: 'token xoxp-1234567890-0987654321-1122334455-abcdef0123456789abcdef0123456789', secret: 'xoxp-1234567890-0987654321-1122334455-abcdef0123456789abcdef0123456789' },
  { shape: 'jwt', text: `The session cookie was ${jwt}; it expires in an hour.`, secret: jwt },
  {
    shape: 'private key block',
    text: `cat ~/.ssh/id_rsa\n-----BEGIN RSA PRIVATE KEY-----\n${rsaBody}\nq2W4e6R8t0Y2u4I6o8P0a2S4d6F8g0H2j4K6l8Z0\n-----END RSA PRIVATE KEY-----`,
    secret: rsaBody,
  },
  { shape: 'openssh private key', text: `-----BEGIN OPENSSH PRIVATE KEY-----\n${rsaBody}`, secret: rsaBody },
  { shape: 'authorization bearer (curl)', text: `curl -H "Authorization: Bearer ${jwt}" https://api.example.com/v1/me`, secret: jwt },
  {
    shape: 'authorization bearer opaque',
    text: "curl -s -H 'Authorization: Bearer 4f9c2e71b8a34d6e9f0a1b2c3d4e5f60' https://api.example.com",
    secret: '4f9c2e71b8a34d6e9f0a1b2c3d4e5f60',
  },
  { shape: 'authorization basic', text: 'Authorization: Basic YWRtaW46c3VwZXJzZWNyZXQxMjM=', secret: 'YWRtaW46c3VwZXJzZWNyZXQxMjM=' },
  { shape: 'bearer alone', text: 'requests.get(url, headers=h)  # h = Bearer 9a8b7c6d5e4f3a2b1c0d9e8f', secret: '9a8b7c6d5e4f3a2b1c0d9e8f' },
  { shape: 'x-api-key header', text: 'curl -H "x-api-key: 7b3e9f21c4d84a0fb6e2d91c5a7f3e08" https://api.example.com', secret: '7b3e9f21c4d84a0fb6e2d91c5a7f3e08' },
  { shape: 'stripe key', text: 'STRIPE=sk_live_51HxYzAbCdEfGhIjKlMnOpQrStUv', secret: 'sk_live_51HxYzAbCdEfGhIjKlMnOpQrStUv' },
  { shape: 'npm token', text: '//registry.npmjs.org/:_authToken=npm_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5b', secret: 'npm_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5b' },
  { shape: 'telegram bot token', text: 'BOT=123456789:AAHk3mZ9pQ2rT5vX8yB1cD4fG7hJ0kL3nP6', secret: '123456789:AAHk3mZ9pQ2rT5vX8yB1cD4fG7hJ0kL3nP6' },
  { shape: 'database url password', text: 'DATABASE_URL=postgres://admin:s3cr3tP4ssw0rd@db.internal:5432/app', secret: 's3cr3tP4ssw0rd' },
  { shape: '*_TOKEN env', text: 'export HF_TOKEN=qwertyuiopasdfghjkl123', secret: 'qwertyuiopasdfghjkl123' },
  { shape: '*_SECRET env', text: 'FEISHU_APP_SECRET=Fh2kL9mQ4rT7vX0zB3dG', secret: 'Fh2kL9mQ4rT7vX0zB3dG' },
  { shape: 'PASSWORD env', text: 'PASSWORD=hunter2hunter2 ./deploy.sh', secret: 'hunter2hunter2' },
  { shape: '*_KEY yaml', text: 'env:\n  SENDGRID_API_KEY: "f8e7d6c5b4a39281"\n', secret: 'f8e7d6c5b4a39281' },
  { shape: '.env file read', text: 'NODE_ENV=production\nPORT=3000\nSESSION_SECRET=correct-horse-battery-staple\nJWT_SIGNING_KEY=Zk4p9Lq2Wm7', secret: 'correct-horse-battery-staple' },
  { shape: '.env file read (2)', text: 'NODE_ENV=production\nSESSION_SECRET=x\nJWT_SIGNING_KEY=Zk4p9Lq2Wm7', secret: 'Zk4p9Lq2Wm7' },
  { shape: 'json client secret', text: '{"client_id": "1234.apps.example.com", "client_secret": "GOCSPX-abcdEFGH1234ijklMNOP5678"}', secret: 'GOCSPX-abcdEFGH1234ijklMNOP5678' },
  { shape: 'code password literal', text: 'db.connect({ host: "db", password: "Tr0ub4dor&3" })', secret: 'Tr0ub4dor&3' },
];

/** Technical text with nothing secret in it: code, paths, hashes, UUIDs, base64 images, URLs, prose about tokens. */
export const ORDINARY_SAMPLES: readonly string[] = [
  'const token = await getToken(user);\nif (!token) throw new Error("no token");',
  'function authorize(req) { return req.headers.authorization?.startsWith("Bearer ") ?? false; }',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the code text itself, not a template
  'fetch(url, { headers: { Authorization: `Bearer ${token}` } })',
  'apiKey: process.env.OPENAI_API_KEY,',
  'export OPENAI_API_KEY=$(op read op://dev/openai/key)',
  'curl -H "Authorization: Bearer $GITHUB_TOKEN" https://api.github.com/user',
  'interface Login { user: string; password: string }',
  'api_key = os.environ["API_KEY"]',
  '/home/dev/project/src/api_keys/rotate-secrets.ts',
  'C:\\Users\\dev\\AppData\\Local\\Temp\\token-cache.json',
  'git checkout 9fceb02d0ae598e95dc970b74767f19372d61af8',
  'sha256: e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
  'request id 123e4567-e89b-12d3-a456-426614174000 failed',
  '![chart](data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==)',
  'See https://github.com/acme/app/pull/123/files?diff=split#diff-4f9c2e71b8a34d6e',
  'https://example.com/search?q=token+rotation&page=2 and http://localhost:3000/api/v1/items',
  'Use a Bearer token in the Authorization header; tokens expire after 3600 seconds.',
  'MAX_TOKENS=4096 NODE_OPTIONS=--max-old-space-size=4096 npm test -- --grep "PASSWORD reset"',
  'npm install @secretlint/core@11.7.1 && npx tsc -b',
  '| key | value |\n| --- | --- |\n| max_tokens | 8192 |\n| temperature | 0.2 |',
  'task-runner-abcdefghijklmnopqrstuvwxyz finished; disk-usage 42%',
  'ssh git@github.com:acme/app.git and mailto:dev@example.com',
  'The test `rejects an expired JWT` passed (12 ms).',
  '{"model": "gpt-5", "max_tokens": 1024, "token_type": "bearer", "tokenizer": "o200k"}',
];
