import{a,b,c,d}from"./app-chunk-QLPW5L5H.js";export{b as language,c as preferred,d as t,a as use};
