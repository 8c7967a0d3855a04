import { z } from "zod";

export interface MenuItem {
  id: string;
  key: string;
  path: string;
  title: string;
  icon: string | null;
  component: string | null;
  redirect: string | null;
  hidden: boolean;
  children: MenuItem[];
}

export const menuItemSchema: z.ZodType<MenuItem> = z
  .object({
    id: z.string(),
    key: z.string().describe("route key; also the permissionId and the i18n key suffix"),
    path: z.string(),
    title: z.string().describe("i18n key of the title, `menu.<key>`"),
    icon: z.string().nullable(),
    component: z.string().nullable().describe("page module under web/src/pages/"),
    redirect: z.string().nullable(),
    hidden: z.boolean(),
    get children() {
      return z.array(menuItemSchema);
    },
  })
  .meta({ id: "MenuItem" });
