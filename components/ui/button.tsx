"use client";
import { forwardRef } from "react";

type Variant = "primary" | "secondary" | "danger" | "ghost";
const VARIANTS: Record<Variant, string> = {
  primary: "bg-blue-700 text-white hover:bg-blue-800 border-blue-700",
  secondary: "bg-white text-slate-800 hover:bg-slate-100 border-slate-300",
  danger: "bg-red-700 text-white hover:bg-red-800 border-red-700",
  ghost: "bg-transparent text-slate-700 hover:bg-slate-100 border-transparent",
};

export type ButtonProps = React.ButtonHTMLAttributes<HTMLButtonElement> & { variant?: Variant; size?: "sm" | "md" };

export const Button = forwardRef<HTMLButtonElement, ButtonProps>(function Button(
  { variant = "secondary", size = "md", className = "", type = "button", ...props },
  ref,
) {
  const sizing = size === "sm" ? "px-2 py-1 text-xs" : "px-3 py-1.5 text-sm";
  return (
    <button
      ref={ref}
      type={type}
      data-variant={variant}
      className={`inline-flex items-center gap-1 rounded border font-medium disabled:cursor-not-allowed disabled:opacity-50 ${sizing} ${VARIANTS[variant]} ${className}`}
      {...props}
    />
  );
});
