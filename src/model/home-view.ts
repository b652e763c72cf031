/**
 * What an agent's home keeps beside the session logs that names no session (permission grants of a project, sandbox
 * events), shown to a reviewer: by `inspect`, what is tied to the session inspected; by `lineage`, what lies outside
 * every session. Sections of items, each a line in words and the same as fields for JSON; every value from the
 * user's files already cut short with its secrets redacted by the format that read it.
 */

export type HomeViewValue = string | number | boolean | string[];

export interface HomeViewItem {
  /** The home's file, relative to the home, and the line the item is on. */
  file: string;
  line?: number;
  /** The item in words, on one line. */
  text: string;
  fields: Record<string, HomeViewValue>;
}

export interface HomeViewSection {
  /** What the items are, as a name for JSON (`permission-grants`) and as words for a heading. */
  kind: string;
  title: string;
  items: HomeViewItem[];
  /** Items of the section not listed (past the format's cap). */
  more?: number;
}

export interface HomeView {
  /** The home, as the user's paths name it. */
  home: string;
  format: string;
  sections: HomeViewSection[];
}
