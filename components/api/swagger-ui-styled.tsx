"use client";
// Swagger UI with its styles, in one chunk loaded on demand: imported beside the page, its
// stylesheet would block the page's first paint for a viewer that renders below the fold.
import "swagger-ui-react/swagger-ui.css";
import "./swagger-contrast.css";
import SwaggerUI from "swagger-ui-react";

export default SwaggerUI;
