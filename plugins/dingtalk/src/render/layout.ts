/**
 * The layout variables of DingTalk's official "AI Markdown card" template
 * (`382e4302-551d-4880-bf29-a30acfab2e71.schema`). DingTalk's own SDK
 * (dingtalk-stream-sdk-python `AIMarkdownCardInstance`) always sends `sys_full_json_obj`, a JSON
 * string whose `order` lists the blocks to show; non-string card data goes there
 * (https://open.dingtalk.com/document/development/faq-card). Peers add `config`
 * `{"autoLayout":true,"enableForward":true}` (its meaning is not documented).
 */

/** The template variables the layout names. */
export interface LayoutKeys {
  readonly title: string;
  readonly content: string;
}

/** `sys_full_json_obj` (blocks in order: the title, then the content) and `config`, as strings. */
export function layoutVariables(keys: LayoutKeys): Record<string, string> {
  return {
    sys_full_json_obj: JSON.stringify({ order: [keys.title, keys.content] }),
    config: JSON.stringify({ autoLayout: true, enableForward: true }),
  };
}
