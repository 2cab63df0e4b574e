/** What a dialog needs to know of the datalogger it acts on. */
export interface DataloggerRef {
  pn: string;
  alias: string;
  status: number;
}
